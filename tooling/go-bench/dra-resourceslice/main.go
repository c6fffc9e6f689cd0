// Command dra-resourceslice runs the @ctrlkit/dra-resourceslice benchmark workload
// against the Go ResourceSlice controller (k8s.io/dynamic-resource-allocation v0.35.0,
// the behaviour @ctrlkit/dra-resourceslice ports), so
// `pnpm --filter @ctrlkit/dra-resourceslice bench` can show both side by side on the
// same apiserver.
//
// Workload (no owner, so every pool is an allNodes pool of driver -driver):
//
//	publish: StartController with -pools pools of one slice with -devices devices each;
//	         the step ends when the controller has created one slice per pool.
//	change:  Update with every -change-every'th device (counted across all pools) given a
//	         new attribute value; the step ends when the controller has updated as many
//	         slices as that touches.
//	After each step the program waits -quiet for further calls, then prints one JSON line:
//	{"step":..,"ms":..,"creates":..,"updates":..,"deletes":..,"writes":..,"reads":..}
//	where creates/updates/deletes are GetStats deltas and writes/reads count the HTTP
//	requests of the step (writes: POST, PUT, PATCH, DELETE; reads: GET, LIST, WATCH).
//
// With -scale, the program instead runs the scale workload described in scale.go.
//
// The client is not rate limited (QPS -1), as the TypeScript side is not.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/dynamic-resource-allocation/resourceslice"
	"k8s.io/utils/ptr"
)

var writes, reads atomic.Int64

type countingTransport struct{ next http.RoundTripper }

func (t countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	switch req.Method {
	case http.MethodGet, http.MethodHead:
		reads.Add(1)
	default:
		writes.Add(1)
	}
	return t.next.RoundTrip(req)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "dra-resourceslice bench (Go): "+format+"\n", args...)
	os.Exit(1)
}

func resources(pools, devices, changeEvery int, changed bool) *resourceslice.DriverResources {
	res := &resourceslice.DriverResources{Pools: map[string]resourceslice.Pool{}}
	n := 0
	for p := 0; p < pools; p++ {
		slice := resourceslice.Slice{}
		for d := 0; d < devices; d++ {
			value := "v1"
			if changed && n%changeEvery == 0 {
				value = "v2"
			}
			n++
			slice.Devices = append(slice.Devices, resourceapi.Device{
				Name: fmt.Sprintf("dev-%d", d),
				Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
					"index":    {IntValue: ptr.To(int64(d))},
					"firmware": {StringValue: ptr.To(value)},
				},
			})
		}
		res.Pools[fmt.Sprintf("pool-%03d", p)] = resourceslice.Pool{Slices: []resourceslice.Slice{slice}}
	}
	return res
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file")
	driver := flag.String("driver", "bench.example.com", "driver name")
	pools := flag.Int("pools", 100, "number of pools")
	devices := flag.Int("devices", 100, "devices per pool (one slice per pool)")
	changeEvery := flag.Int("change-every", 100, "change every n-th device in the change step")
	quiet := flag.Duration("quiet", 2*time.Second, "wait this long after a step for further calls")
	scale := flag.Bool("scale", false, "run the -scale mode (scale.go) instead of the two steps")
	nodes := flag.Int("nodes", 0, "with -scale: node-local drivers, one controller per node (0: one network-attached driver with -pools pools)")
	flag.Parse()

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fail("kubeconfig: %v", err)
	}
	config.QPS = -1
	config.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { return countingTransport{rt} }
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fail("client: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if *scale {
		runScale(ctx, client, *driver, *nodes, *pools, *devices, *quiet)
		return
	}

	touched := 0
	for n := 0; n < *pools**devices; n += *changeEvery {
		touched++
	}
	changedPools := map[int]bool{}
	for n := 0; n < *pools**devices; n += *changeEvery {
		changedPools[n / *devices] = true
	}

	var controller *resourceslice.Controller
	step := func(name string, run func(), done func(resourceslice.Stats) bool) {
		var before resourceslice.Stats
		if controller != nil {
			before = controller.GetStats()
		}
		w0, r0 := writes.Load(), reads.Load()
		start := time.Now()
		run()
		for !done(controller.GetStats()) {
			time.Sleep(time.Millisecond)
		}
		elapsed := time.Since(start)
		time.Sleep(*quiet)
		after := controller.GetStats()
		out, _ := json.Marshal(map[string]any{
			"step": name, "ms": float64(elapsed.Microseconds()) / 1000,
			"creates": after.NumCreates - before.NumCreates,
			"updates": after.NumUpdates - before.NumUpdates,
			"deletes": after.NumDeletes - before.NumDeletes,
			"writes":  writes.Load() - w0, "reads": reads.Load() - r0,
			"devicesTouched": touched,
		})
		fmt.Println(string(out))
	}

	step("publish", func() {
		controller, err = resourceslice.StartController(ctx, resourceslice.Options{
			DriverName: *driver,
			KubeClient: client,
			Resources:  resources(*pools, *devices, *changeEvery, false),
			ErrorHandler: func(ctx context.Context, err error, msg string) {
				fmt.Fprintf(os.Stderr, "%s: %v\n", msg, err)
			},
		})
		if err != nil {
			fail("start: %v", err)
		}
	}, func(s resourceslice.Stats) bool { return s.NumCreates >= int64(*pools) })

	base := controller.GetStats().NumUpdates
	step("change", func() {
		controller.Update(resources(*pools, *devices, *changeEvery, true))
	}, func(s resourceslice.Stats) bool { return s.NumUpdates-base >= int64(len(changedPools)) })

	controller.Stop()
}
