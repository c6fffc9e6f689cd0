// The -scale mode: how publishing grows with the number of drivers and pools (issue 36).
//
//	-nodes N:  N node-local drivers in this one process (one controller each, as a kubelet
//	           plugin runs one per node, all started at once), each the owner's Node node-%04d (the Nodes exist;
//	           the controller reads each one for its UID), one pool named for the node with
//	           one slice of -devices devices. All share one client.
//	-nodes 0:  one network-attached driver (no owner) with -pools pools of one slice of
//	           -devices devices each.
//
// The run ends when the controllers together have created one slice per pool; the program
// then waits -quiet for further calls and prints one JSON line:
// {"ms":..,"creates":..,"updates":..,"deletes":..,"cpuMs":..,"heapBytes":..,"rssBytes":..}
// cpuMs is the process's user+system time from before the first StartController to the end
// of the quiet wait; heapBytes is the live heap after a forced GC at the end.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/dynamic-resource-allocation/resourceslice"
	"k8s.io/utils/ptr"
)

func scaleDevices(n int) []resourceapi.Device {
	devices := make([]resourceapi.Device, 0, n)
	for d := 0; d < n; d++ {
		devices = append(devices, resourceapi.Device{
			Name: fmt.Sprintf("dev-%d", d),
			Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
				"index":    {IntValue: ptr.To(int64(d))},
				"firmware": {StringValue: ptr.To("v1")},
			},
		})
	}
	return devices
}

func cpuMs() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fail("getrusage: %v", err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

func runScale(ctx context.Context, client kubernetes.Interface, driver string, nodes, pools, devices int, quiet time.Duration) {
	errorHandler := func(ctx context.Context, err error, msg string) {
		fmt.Fprintf(os.Stderr, "%s: %v\n", msg, err)
	}
	cpu0 := cpuMs()
	start := time.Now()
	var controllers []*resourceslice.Controller
	want := int64(pools)
	if nodes > 0 {
		want = int64(nodes)
		// Started side by side, as kubelet plugins on their nodes start: StartController
		// returns once its informer has synced.
		controllers = make([]*resourceslice.Controller, nodes)
		var wg sync.WaitGroup
		for n := 0; n < nodes; n++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name := fmt.Sprintf("node-%04d", n)
				c, err := resourceslice.StartController(ctx, resourceslice.Options{
					DriverName: driver,
					KubeClient: client,
					Owner:      &resourceslice.Owner{APIVersion: "v1", Kind: "Node", Name: name},
					Resources: &resourceslice.DriverResources{Pools: map[string]resourceslice.Pool{
						name: {Slices: []resourceslice.Slice{{Devices: scaleDevices(devices)}}},
					}},
					ErrorHandler: errorHandler,
				})
				if err != nil {
					fail("start %s: %v", name, err)
				}
				controllers[n] = c
			}()
		}
		wg.Wait()
	} else {
		res := &resourceslice.DriverResources{Pools: map[string]resourceslice.Pool{}}
		for p := 0; p < pools; p++ {
			res.Pools[fmt.Sprintf("pool-%04d", p)] = resourceslice.Pool{Slices: []resourceslice.Slice{{Devices: scaleDevices(devices)}}}
		}
		c, err := resourceslice.StartController(ctx, resourceslice.Options{
			DriverName: driver, KubeClient: client, Resources: res, ErrorHandler: errorHandler,
		})
		if err != nil {
			fail("start: %v", err)
		}
		controllers = append(controllers, c)
	}
	total := func() (s resourceslice.Stats) {
		for _, c := range controllers {
			cs := c.GetStats()
			s.NumCreates += cs.NumCreates
			s.NumUpdates += cs.NumUpdates
			s.NumDeletes += cs.NumDeletes
		}
		return s
	}
	for total().NumCreates < want {
		time.Sleep(time.Millisecond)
	}
	elapsed := time.Since(start)
	time.Sleep(quiet)
	s := total()
	cpu := cpuMs() - cpu0
	runtime.GC()
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	out, _ := json.Marshal(map[string]any{
		"ms": float64(elapsed.Microseconds()) / 1000, "creates": s.NumCreates,
		"updates": s.NumUpdates, "deletes": s.NumDeletes, "cpuMs": cpu,
		"heapBytes": mem.HeapAlloc, "rssBytes": ru.Maxrss * 1024,
	})
	fmt.Println(string(out))
	for _, c := range controllers {
		c.Stop()
	}
}
