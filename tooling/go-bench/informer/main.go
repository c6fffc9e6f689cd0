// Command informer runs the @ctrlkit/runtime informer benchmark workloads against
// client-go's shared informer, so `pnpm --filter @ctrlkit/runtime bench` can show the
// three informers side by side on the same apiserver.
//
// It prints one JSON object per line on stdout.
//
//	-mode sync:   start a shared informer on the ConfigMaps of -namespace, wait until it
//	              has synced (HasSynced polled every millisecond, so the figure is not
//	              rounded up to WaitForCacheSync's 100 ms poll), check that the store holds
//	              -expect objects, then report the time and the live heap (runtime.GC,
//	              HeapAlloc delta) and RSS per cached object:
//	              {"kind":"sync","syncedMs":..,"cpuMs":..,"waitForCacheSyncMs":..,"objects":..,"heapPerObject":..,"rssPerObject":..,"rssMB":..}
//	-mode events: start the informer, wait until synced, print {"kind":"ready"}, then read
//	              commands on stdin: "start" resets the counters; "stop <writes>" waits
//	              until <writes> update events were handled (or 3 s without one) and prints
//	              {"kind":"events","events":..,"seconds":..,"cpuMs":..}; the informer's
//	              update handler does the counting. Then, still on stdin: "heap" prints
//	              {"kind":"heap","heap":..,"version":..} (the live heap after runtime.GC, the
//	              informer's LastSyncResourceVersion), and "relist <rv>"
//	              waits until the informer's LastSyncResourceVersion reaches <rv> (it relisted:
//	              the bench restarted the apiserver over an etcd compacted to <rv>), lets it
//	              settle for a second and prints {"kind":"relist","heap":..,"waitedMs":..}.
//	              The process exits at the end of stdin.
//
// -resource pods watches the Pods of -namespace instead of its ConfigMaps.
//
// client-go runs with its defaults unless told otherwise: protobuf for built-in types
// (its typed clients prefer it; -content-type application/json for JSON), the
// WatchListClient feature (the streaming list) on as client-go v0.37 ships it (-watch-list
// false for LIST+WATCH), no transform: the cache keeps managedFields.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func emit(v map[string]any) {
	if err := json.NewEncoder(os.Stdout).Encode(v); err != nil {
		panic(err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "informer bench (client-go): "+format+"\n", args...)
	os.Exit(1)
}

// rssBytes reads VmRSS from /proc/self/status (0 where there is no /proc).
func rssBytes() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			fields := strings.Fields(line)
			kb, _ := strconv.ParseFloat(fields[1], 64)
			return kb * 1024
		}
	}
	return 0
}

func liveHeap() float64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc)
}

func cpuMs() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file of the apiserver")
	namespace := flag.String("namespace", "", "namespace of the ConfigMaps")
	mode := flag.String("mode", "sync", "sync or events")
	expect := flag.Int("expect", 10000, "ConfigMaps expected in the namespace")
	contentType := flag.String("content-type", "", "the wire format, e.g. application/json; default: client-go's (protobuf for built-in types)")
	resource := flag.String("resource", "configmaps", "configmaps or pods")
	watchList := flag.String("watch-list", "", "true or false: the WatchListClient feature gate; default: client-go's (on in v0.37)")
	flag.Parse()
	if *watchList != "" {
		// client-go reads its feature gates from KUBE_FEATURE_<name> at first use.
		if err := os.Setenv("KUBE_FEATURE_WatchListClient", *watchList); err != nil {
			fail("setenv: %v", err)
		}
	}
	if *kubeconfig == "" || *namespace == "" {
		fail("-kubeconfig and -namespace are required")
	}

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fail("kubeconfig: %v", err)
	}
	config.ContentType = *contentType
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fail("client: %v", err)
	}

	var counting atomic.Bool
	var events atomic.Int64
	var mu sync.Mutex
	var first, last time.Time

	heapBefore := liveHeap()
	rssBefore := rssBytes()
	start := time.Now()
	cpuBefore := cpuMs()

	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(*namespace))
	var informer cache.SharedIndexInformer
	switch *resource {
	case "configmaps":
		informer = factory.Core().V1().ConfigMaps().Informer()
	case "pods":
		informer = factory.Core().V1().Pods().Informer()
	default:
		fail("unknown -resource %q", *resource)
	}
	_, err = informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(any) {},
		UpdateFunc: func(any, any) {
			if !counting.Load() {
				return
			}
			now := time.Now()
			mu.Lock()
			if events.Add(1) == 1 {
				first = now
			}
			last = now
			mu.Unlock()
		},
		DeleteFunc: func(any) {},
	})
	if err != nil {
		fail("handler: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	factory.Start(ctx.Done())

	deadline := time.Now().Add(120 * time.Second)
	for !informer.HasSynced() {
		if time.Now().After(deadline) {
			fail("not synced after 120 s")
		}
		time.Sleep(time.Millisecond)
	}
	synced := time.Since(start)
	cpuSynced := cpuMs() - cpuBefore
	// What a controller waiting with cache.WaitForCacheSync (100 ms poll) would see.
	cache.WaitForCacheSync(ctx.Done(), informer.HasSynced)
	waited := time.Since(start)
	objects := len(informer.GetStore().ListKeys())
	if objects != *expect {
		fail("synced with %d objects, expected %d", objects, *expect)
	}

	if *mode == "sync" {
		heap := liveHeap() - heapBefore
		rss := rssBytes()
		emit(map[string]any{
			"kind":               "sync",
			"syncedMs":           float64(synced.Microseconds()) / 1000,
			"cpuMs":              cpuSynced,
			"waitForCacheSyncMs": float64(waited.Microseconds()) / 1000,
			"objects":            objects,
			"heapPerObject":      heap / float64(objects),
			"rssPerObject":       (rss - rssBefore) / float64(objects),
			"rssMB":              rss / 1e6,
		})
		runtime.KeepAlive(informer)
		return
	}
	if *mode != "events" {
		fail("unknown -mode %q", *mode)
	}

	emit(map[string]any{"kind": "ready"})
	var cpuStart float64
	lines := bufio.NewScanner(os.Stdin)
	for lines.Scan() {
		fields := strings.Fields(lines.Text())
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "start":
			mu.Lock()
			events.Store(0)
			first, last = time.Time{}, time.Time{}
			mu.Unlock()
			cpuStart = cpuMs()
			counting.Store(true)
		case "stop":
			writes := int64(0)
			if len(fields) > 1 {
				writes, _ = strconv.ParseInt(fields[1], 10, 64)
			}
			// Wait until every write arrived, or for 3 s without a new event.
			seen, idleSince := events.Load(), time.Now()
			for events.Load() < writes && time.Since(idleSince) < 3*time.Second {
				time.Sleep(10 * time.Millisecond)
				if n := events.Load(); n != seen {
					seen, idleSince = n, time.Now()
				}
			}
			counting.Store(false)
			cpu := cpuMs() - cpuStart
			mu.Lock()
			n := events.Load()
			seconds := last.Sub(first).Seconds()
			mu.Unlock()
			emit(map[string]any{"kind": "events", "events": n, "seconds": seconds, "cpuMs": cpu})
		case "heap":
			emit(map[string]any{"kind": "heap", "heap": liveHeap(), "version": informer.LastSyncResourceVersion()})
		case "relist":
			emit(relisted(informer, fields))
		}
	}
	runtime.KeepAlive(informer)
}

// relisted waits until the informer has synced past the resource version in fields[1] (at
// most 5 minutes), lets the replaced objects become garbage for a second, and reports the
// live heap then.
func relisted(informer cache.SharedIndexInformer, fields []string) map[string]any {
	if len(fields) < 2 {
		fail("relist needs a resource version")
	}
	target, err := strconv.ParseUint(fields[1], 10, 64)
	if err != nil {
		fail("relist %q: %v", fields[1], err)
	}
	start := time.Now()
	for {
		rv, _ := strconv.ParseUint(informer.LastSyncResourceVersion(), 10, 64)
		if rv >= target && informer.HasSynced() {
			break
		}
		if time.Since(start) > 5*time.Minute {
			fail("no relist past %d after 5 minutes (at %s)", target, informer.LastSyncResourceVersion())
		}
		time.Sleep(10 * time.Millisecond)
	}
	waited := time.Since(start)
	time.Sleep(time.Second)
	return map[string]any{"kind": "relist", "heap": liveHeap(), "waitedMs": float64(waited.Milliseconds())}
}
