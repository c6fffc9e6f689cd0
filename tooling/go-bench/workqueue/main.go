// Command workqueue runs the @ctrlkit/workqueue benchmark workloads against client-go's
// util/workqueue, so `pnpm --filter @ctrlkit/workqueue bench` can show both side by side.
// It prints one JSON object per line: {"row": ..., "value": ..., "unit": ...}.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"

	"k8s.io/client-go/util/workqueue"
)

type row struct {
	Row   string  `json:"row"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

func emit(r row) {
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		panic(err)
	}
}

func keys(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("key-%d", i)
	}
	return out
}

// worker takes items until the queue reports shutdown, counting them.
func worker(q workqueue.TypedInterface[string], wg *sync.WaitGroup, got *int64, mu *sync.Mutex) {
	defer wg.Done()
	var n int64
	for {
		item, shutdown := q.Get()
		if shutdown {
			mu.Lock()
			*got += n
			mu.Unlock()
			return
		}
		n++
		q.Done(item)
	}
}

// distinct: one producer adds every key once while the workers take them.
func distinct(items []string, workers int) float64 {
	rate, got := produce(items, len(items), workers)
	if got != int64(len(items)) {
		panic(fmt.Sprintf("got %d of %d", got, len(items)))
	}
	return rate
}

// produce: one producer adds `adds` times over the keys while the workers run; it
// returns adds per second, from the first add until every worker has stopped.
func produce(items []string, adds int, workers int) (float64, int64) {
	start := time.Now()
	q := workqueue.NewTyped[string]()
	var wg sync.WaitGroup
	var got int64
	var mu sync.Mutex
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go worker(q, &wg, &got, &mu)
	}
	for i := 0; i < adds; i++ {
		q.Add(items[i%len(items)])
	}
	q.ShutDown()
	wg.Wait()
	return float64(adds) / time.Since(start).Seconds(), got
}

func heapAlloc() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// delayed: n items each waiting an hour and a bit.
func delayed(items []string) (float64, float64) {
	before := heapAlloc()
	q := workqueue.NewTypedDelayingQueue[string]()
	start := time.Now()
	for i, k := range items {
		q.AddAfter(k, time.Hour+time.Duration(i)*time.Millisecond)
	}
	perOp := float64(time.Since(start).Nanoseconds()) / float64(len(items)) / 1000
	time.Sleep(200 * time.Millisecond) // let the waiting loop take the last buffered entries
	after := heapAlloc()
	q.ShutDown()
	runtime.KeepAlive(items)
	return perOp, float64(after-before) / float64(len(items))
}

// when: the default controller rate limiter over 1000 items.
func when(items []string, calls int) float64 {
	limiter := workqueue.DefaultTypedControllerRateLimiter[string]()
	start := time.Now()
	for i := 0; i < calls; i++ {
		limiter.When(items[i%1000])
	}
	return float64(time.Since(start).Nanoseconds()) / float64(calls)
}

// pending: heap per item of a queue holding n distinct keys that no worker takes.
func pending(items []string) float64 {
	before := heapAlloc()
	q := workqueue.NewTyped[string]()
	for _, k := range items {
		q.Add(k)
	}
	after := heapAlloc()
	if q.Len() != len(items) {
		panic(fmt.Sprintf("pending: %d of %d", q.Len(), len(items)))
	}
	q.ShutDown()
	runtime.KeepAlive(q)
	return float64(after-before) / float64(len(items))
}

// cpuSeconds: the CPU time (user + system, all threads) of this process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// scale: one round of the scale curves (issue 36): contended adds at 1, 4, 16 workers, and heap
// per pending item at 10k, 100k and n distinct keys.
func scale(items []string) {
	n := len(items)
	for _, w := range []int{1, 4, 16} {
		produce(items[:100], n/10, w) // warm-up, dropped, as the TypeScript side does
	}
	for _, w := range []int{1, 4, 16} {
		cpu := cpuSeconds()
		rate, _ := produce(items[:100], n, w)
		emit(row{fmt.Sprintf("contended %d", w), rate, "adds/s"})
		emit(row{fmt.Sprintf("contended-cpu %d", w), float64(n) / (cpuSeconds() - cpu), "adds/CPU s"})
	}
	for _, size := range []int{10_000, 100_000, n} {
		emit(row{fmt.Sprintf("pending %d", size), pending(items[:size]), "B"})
	}
}

func main() {
	n := flag.Int("n", 1_000_000, "items per workload")
	scaleMode := flag.Bool("scale", false, "one round of the scale curves instead of the table")
	flag.Parse()
	items := keys(*n)
	if *scaleMode {
		scale(items)
		return
	}
	// Warm up on a tenth of the work, as the TypeScript side does; these figures are dropped.
	produce(items[:*n/10], *n/10, 1)
	produce(items[:100], *n/10, 4)
	for _, w := range []int{1, 4, 16} {
		emit(row{fmt.Sprintf("distinct keys, %d worker(s)", w), distinct(items, w), "cycles/s"})
	}
	for _, w := range []int{1, 4, 16} {
		rate, _ := produce(items[:100], *n, w)
		emit(row{fmt.Sprintf("%d adds over 100 keys, %d worker(s)", *n, w), rate, "adds/s"})
	}
	perOp, perItem := delayed(items)
	emit(row{"addAfter, 1,000,000 pending", perOp, "µs/op"})
	emit(row{"heap per pending delayed item", perItem, "B"})
	emit(row{"default controller rate limiter when()", when(items, *n), "ns/op"})
}
