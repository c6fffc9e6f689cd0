// Command dra-resourceslice runs the Go ResourceSlice controller of
// k8s.io/dynamic-resource-allocation v0.35.0 (the behaviour @ctrlkit/dra-resourceslice ports)
// for one driver, so the package's interop test can hand the same slices back and forth
// between it and the TypeScript controller on one apiserver
// (packages/dra-resourceslice/src/go-interop.int.test.ts).
//
// The initial DriverResources come from the JSON file -resources ("-" is not allowed: stdin
// carries commands). The JSON is that of the Go struct, which encoding/json matches
// case-insensitively, so the TypeScript DriverResources serialize as is:
// {"pools":{"p":{"nodeSelector":{...},"generation":0,"slices":[{"devices":[...]}]}}}.
//
// Commands are JSON lines on stdin; each is answered by exactly one JSON line on stdout:
//
//	{"op":"stats"}                       the counters below
//	{"op":"update","resources":{...}}    Controller.Update, then the counters
//	{"op":"stop"}                        Controller.Stop, then the counters; the program exits 0
//
// The counters: {"event":"started"|"stats"|"updated"|"stopped","creates":..,"updates":..,
// "deletes":..,"writes":..,"reads":..,"errors":..,"processed":..,"idle":..} where
// creates/updates/deletes are GetStats, writes/reads count HTTP requests (writes: POST, PUT,
// PATCH, DELETE; reads: GET), errors counts ErrorHandler calls (each printed on stderr), processed counts the work items the controller has finished (queue Done calls) and
// idle is true when nothing is queued or being processed and no item delayed by at most
// -sync-delay (the syncs after informer events) is still to come; the mutation cache's
// re-syncs after a minute are not waited for. "started" is printed once when
// StartController has returned.
//
// End of stdin, SIGTERM or SIGINT stop the controller like {"op":"stop"}.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/dynamic-resource-allocation/resourceslice"
)

var writes, reads, failures atomic.Int64

// countingTransport counts the HTTP requests of the controller's client.
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

// settleMargin is how long after a delayed item was due the queue must have had it to be idle.
const settleMargin = 300 * time.Millisecond

// trackingQueue is the controller's default queue, counting finished items and those in
// flight, and remembering when the last item delayed by at most syncDelay is due.
type trackingQueue struct {
	workqueue.TypedRateLimitingInterface[string]
	syncDelay           time.Duration
	inFlight, processed atomic.Int64
	mu                  sync.Mutex
	due                 time.Time
}

func (q *trackingQueue) Get() (string, bool) {
	item, shutdown := q.TypedRateLimitingInterface.Get()
	if !shutdown {
		q.inFlight.Add(1)
	}
	return item, shutdown
}

func (q *trackingQueue) Done(item string) {
	q.TypedRateLimitingInterface.Done(item)
	q.processed.Add(1)
	q.inFlight.Add(-1)
}

func (q *trackingQueue) AddAfter(item string, delay time.Duration) {
	if delay <= q.syncDelay {
		q.mu.Lock()
		if due := time.Now().Add(delay); due.After(q.due) {
			q.due = due
		}
		q.mu.Unlock()
	}
	q.TypedRateLimitingInterface.AddAfter(item, delay)
}

// idle: nothing queued or in flight, and no item delayed by at most syncDelay still to come.
func (q *trackingQueue) idle() bool {
	q.mu.Lock()
	due := q.due
	q.mu.Unlock()
	return time.Since(due) > settleMargin && q.Len() == 0 && q.inFlight.Load() == 0
}

type command struct {
	Op        string                         `json:"op"`
	Resources *resourceslice.DriverResources `json:"resources"`
}

var out = json.NewEncoder(os.Stdout)

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "dra-resourceslice interop (Go): "+format+"\n", args...)
	os.Exit(code)
}

func readResources(path string) *resourceslice.DriverResources {
	data, err := os.ReadFile(path)
	if err != nil {
		fail(2, "-resources: %v", err)
	}
	var res resourceslice.DriverResources
	if err := json.Unmarshal(data, &res); err != nil {
		fail(2, "-resources %s: %v", path, err)
	}
	return &res
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig file")
	driver := flag.String("driver", "", "DRA driver name")
	resourcesFile := flag.String("resources", "", "JSON file with the initial DriverResources")
	node := flag.String("node", "", "owner Node of the slices (node-local pools); none when empty")
	syncDelay := flag.Duration("sync-delay", resourceslice.DefaultSyncDelay, "SyncDelay")
	flag.Parse()
	if *driver == "" || *resourcesFile == "" {
		fail(2, "-driver and -resources are required")
	}

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fail(2, "kubeconfig: %v", err)
	}
	config.QPS = -1
	config.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { return countingTransport{rt} }
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fail(2, "client: %v", err)
	}

	queue := &trackingQueue{syncDelay: *syncDelay, TypedRateLimitingInterface: workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "node_resource_slices"},
	)}
	var owner *resourceslice.Owner
	if *node != "" {
		owner = &resourceslice.Owner{APIVersion: "v1", Kind: "Node", Name: *node}
	}
	ctx, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stopSignals()
	controller, err := resourceslice.StartController(context.Background(), resourceslice.Options{
		DriverName: *driver,
		KubeClient: client,
		Owner:      owner,
		Resources:  readResources(*resourcesFile),
		Queue:      queue,
		SyncDelay:  syncDelay,
		ErrorHandler: func(ctx context.Context, err error, msg string) {
			failures.Add(1)
			fmt.Fprintf(os.Stderr, "%s: %v\n", msg, err)
		},
	})
	if err != nil {
		fail(1, "start: %v", err)
	}

	var mu sync.Mutex // one answer line at a time
	report := func(event string) {
		mu.Lock()
		defer mu.Unlock()
		s := controller.GetStats()
		if err := out.Encode(map[string]any{
			"event": event, "creates": s.NumCreates, "updates": s.NumUpdates, "deletes": s.NumDeletes,
			"writes": writes.Load(), "reads": reads.Load(),
			"errors": failures.Load(), "processed": queue.processed.Load(), "idle": queue.idle(),
		}); err != nil {
			fail(1, "stdout: %v", err)
		}
	}
	report("started")

	commands := make(chan command)
	go func() {
		defer close(commands)
		decoder := json.NewDecoder(os.Stdin)
		for {
			var cmd command
			if err := decoder.Decode(&cmd); err != nil {
				if !errors.Is(err, io.EOF) {
					fmt.Fprintf(os.Stderr, "stdin: %v\n", err)
				}
				return
			}
			commands <- cmd
		}
	}()

	for {
		select {
		case <-ctx.Done():
			controller.Stop()
			report("stopped")
			return
		case cmd, ok := <-commands:
			if !ok {
				controller.Stop()
				report("stopped")
				return
			}
			switch cmd.Op {
			case "stats":
				report("stats")
			case "update":
				controller.Update(cmd.Resources)
				report("updated")
			case "stop":
				controller.Stop()
				report("stopped")
				return
			default:
				fail(2, "unknown op %q", cmd.Op)
			}
		}
	}
}
