// Command virtual-kubelet runs Go virtual-kubelet's node package (NodeController with a
// v1 lease, PodController) with a provider that behaves as virtual-kubelet's mock provider,
// so `pnpm --filter @ctrlkit/node-controller bench` can compare it with @ctrlkit/node-controller
// on the same apiserver.
//
// -limiters picks the pod controller's queue rate limiters: "per-item" (the default: per-item
// exponential 5 ms..1000 s and no overall bucket, as bench/run.mjs gives the TypeScript agent) or
// "default" (none set, so NewPodController takes client-go's DefaultTypedControllerRateLimiter:
// that per-item backoff and an overall bucket of 10 qps, burst 100, as upstream's nodeutil.NewNode
// and so the virtual-kubelet binary; bench/bin.mjs uses it beside ctrlkit-virtual-kubelet).
//
// Protocol (one JSON object per line on stdout):
//
//	start-up:      registers -nodename, runs the pod controller with -workers workers,
//	               prints {"kind":"ready"} once the pod controller is ready.
//	stdin "reset": zeroes the request counter, prints {"kind":"reset"}.
//	stdin "stats": prints {"kind":"stats","requests":..,"byVerb":{..},"cpuMs":..,"rssMB":..,"peakRssMB":..,"heapMB":..}
//	               (cpuMs: user + system CPU time of the process since the last "reset").
//	stdin EOF:     stops and exits.
//
// The mock provider's behaviour is written here (upstream's lives in an internal package
// of the virtual-kubelet command): CreatePod marks the pod Running with conditions and
// running containers and notifies; DeletePod marks it Succeeded with reason
// MockProviderPodDeleted, its containers terminated, and notifies.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/virtual-kubelet/virtual-kubelet/errdefs"
	"github.com/virtual-kubelet/virtual-kubelet/node"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
)

var requests atomic.Int64
var byVerb sync.Map

type countingTransport struct{ next http.RoundTripper }

func (c countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	requests.Add(1)
	verb := r.Method
	if r.URL.Query().Get("watch") == "true" {
		verb = "WATCH"
	}
	v, _ := byVerb.LoadOrStore(verb, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
	return c.next.RoundTrip(r)
}

// cpuMs is the user + system CPU time of the process so far, in ms.
func cpuMs() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

func emit(v map[string]any) {
	if err := json.NewEncoder(os.Stdout).Encode(v); err != nil {
		panic(err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "virtual-kubelet bench (go): "+format+"\n", args...)
	os.Exit(1)
}

func statusKB(field string) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, field+":") {
			parts := strings.Fields(line)
			if len(parts) >= 2 {
				kb, _ := strconv.ParseFloat(parts[1], 64)
				return kb
			}
		}
	}
	return 0
}

// mockProvider keeps pods in memory and reports them as upstream's mock provider does.
type mockProvider struct {
	mu       sync.Mutex
	pods     map[string]*corev1.Pod
	notifier func(*corev1.Pod)
}

func key(ns, name string) string { return ns + "/" + name }

func (p *mockProvider) CreatePod(ctx context.Context, pod *corev1.Pod) error {
	now := metav1.NewTime(time.Now())
	pod = pod.DeepCopy()
	pod.Status = corev1.PodStatus{
		Phase:     corev1.PodRunning,
		HostIP:    "1.2.3.4",
		PodIP:     "5.6.7.8",
		StartTime: &now,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodInitialized, Status: corev1.ConditionTrue},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue},
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
		},
	}
	for _, c := range pod.Spec.Containers {
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, corev1.ContainerStatus{
			Name: c.Name, Image: c.Image, Ready: true, RestartCount: 0,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}},
		})
	}
	p.mu.Lock()
	p.pods[key(pod.Namespace, pod.Name)] = pod
	notify := p.notifier
	p.mu.Unlock()
	notify(pod.DeepCopy())
	return nil
}

func (p *mockProvider) UpdatePod(ctx context.Context, pod *corev1.Pod) error {
	p.mu.Lock()
	old, ok := p.pods[key(pod.Namespace, pod.Name)]
	p.mu.Unlock()
	if !ok {
		return errdefs.NotFound("pod not found")
	}
	updated := pod.DeepCopy()
	updated.Status = old.Status
	p.mu.Lock()
	p.pods[key(pod.Namespace, pod.Name)] = updated
	notify := p.notifier
	p.mu.Unlock()
	notify(updated.DeepCopy())
	return nil
}

func (p *mockProvider) DeletePod(ctx context.Context, pod *corev1.Pod) error {
	k := key(pod.Namespace, pod.Name)
	p.mu.Lock()
	_, ok := p.pods[k]
	delete(p.pods, k)
	notify := p.notifier
	p.mu.Unlock()
	if !ok {
		return errdefs.NotFound("pod not found")
	}
	now := metav1.NewTime(time.Now())
	pod = pod.DeepCopy()
	pod.Status.Phase = corev1.PodSucceeded
	pod.Status.Reason = "MockProviderPodDeleted"
	for i := range pod.Status.ContainerStatuses {
		cs := &pod.Status.ContainerStatuses[i]
		started := now
		if cs.State.Running != nil {
			started = cs.State.Running.StartedAt
		}
		cs.Ready = false
		cs.State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
			Reason: "MockProviderPodContainerDeleted", Message: "Mock provider terminated container upon deletion",
			FinishedAt: now, StartedAt: started,
		}}
	}
	notify(pod)
	return nil
}

func (p *mockProvider) GetPod(ctx context.Context, namespace, name string) (*corev1.Pod, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pod, ok := p.pods[key(namespace, name)]
	if !ok {
		return nil, errdefs.NotFound("pod not found")
	}
	return pod.DeepCopy(), nil
}

func (p *mockProvider) GetPodStatus(ctx context.Context, namespace, name string) (*corev1.PodStatus, error) {
	pod, err := p.GetPod(ctx, namespace, name)
	if err != nil {
		return nil, err
	}
	return &pod.Status, nil
}

func (p *mockProvider) GetPods(ctx context.Context) ([]*corev1.Pod, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*corev1.Pod, 0, len(p.pods))
	for _, pod := range p.pods {
		out = append(out, pod.DeepCopy())
	}
	return out, nil
}

func (p *mockProvider) NotifyPods(ctx context.Context, f func(*corev1.Pod)) {
	p.mu.Lock()
	p.notifier = f
	p.mu.Unlock()
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig path")
	nodeName := flag.String("nodename", "vk-go", "node name")
	workers := flag.Int("workers", 1, "pod sync workers")
	limiters := flag.String("limiters", "per-item", `queue rate limiters: "per-item" or "default" (upstream's)`)
	flag.Parse()
	if *limiters != "per-item" && *limiters != "default" {
		fail("-limiters: %q is neither \"per-item\" nor \"default\"", *limiters)
	}

	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fail("kubeconfig: %v", err)
	}
	cfg.QPS = 10000
	cfg.Burst = 10000
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { return countingTransport{rt} }
	client := kubernetes.NewForConfigOrDie(cfg)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: *nodeName, Labels: map[string]string{"type": "virtual-kubelet", "kubernetes.io/role": "agent"}},
		Spec:       corev1.NodeSpec{Taints: []corev1.Taint{{Key: "virtual-kubelet.io/provider", Value: "mock", Effect: corev1.TaintEffectNoSchedule}}},
		Status: corev1.NodeStatus{
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is ready."}},
		},
	}
	nc, err := node.NewNodeController(node.NaiveNodeProvider{}, n, client.CoreV1().Nodes(),
		node.WithNodeEnableLeaseV1(client.CoordinationV1().Leases(corev1.NamespaceNodeLease), 0))
	if err != nil {
		fail("node controller: %v", err)
	}
	go func() {
		if err := nc.Run(ctx); err != nil && ctx.Err() == nil {
			fail("node controller: %v", err)
		}
	}()

	podInformers := kubeinformers.NewSharedInformerFactoryWithOptions(client, time.Minute,
		kubeinformers.WithTweakListOptions(func(o *metav1.ListOptions) {
			o.FieldSelector = fields.OneTermEqualSelector("spec.nodeName", *nodeName).String()
		}))
	others := kubeinformers.NewSharedInformerFactory(client, time.Minute)
	broadcaster := record.NewBroadcaster()
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events("")})
	recorder := broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: *nodeName + "/pod-controller"})

	pcConfig := node.PodControllerConfig{
		PodClient:         client.CoreV1(),
		PodInformer:       podInformers.Core().V1().Pods(),
		EventRecorder:     recorder,
		Provider:          &mockProvider{pods: map[string]*corev1.Pod{}},
		ConfigMapInformer: others.Core().V1().ConfigMaps(),
		SecretInformer:    others.Core().V1().Secrets(),
		ServiceInformer:   others.Core().V1().Services(),
	}
	if *limiters == "per-item" {
		limiter := func() workqueue.RateLimiter {
			return workqueue.NewItemExponentialFailureRateLimiter(5*time.Millisecond, 1000*time.Second)
		}
		pcConfig.SyncPodsFromKubernetesRateLimiter = limiter()
		pcConfig.DeletePodsFromKubernetesRateLimiter = limiter()
		pcConfig.SyncPodStatusFromProviderRateLimiter = limiter()
	}
	pc, err := node.NewPodController(pcConfig)
	if err != nil {
		fail("pod controller: %v", err)
	}
	podInformers.Start(ctx.Done())
	others.Start(ctx.Done())
	go func() {
		if err := pc.Run(ctx, *workers); err != nil && ctx.Err() == nil {
			fail("pod controller: %v", err)
		}
	}()
	select {
	case <-pc.Ready():
	case <-pc.Done():
		fail("pod controller: %v", pc.Err())
	}
	select {
	case <-nc.Ready():
	case <-nc.Done():
		fail("node controller: %v", nc.Err())
	}
	emit(map[string]any{"kind": "ready"})

	cpuAtReset := cpuMs()
	scanner := bufio.NewScanner(os.Stdin)
	for scanner.Scan() {
		switch strings.TrimSpace(scanner.Text()) {
		case "reset":
			requests.Store(0)
			cpuAtReset = cpuMs()
			byVerb.Range(func(_, v any) bool { v.(*atomic.Int64).Store(0); return true })
			emit(map[string]any{"kind": "reset"})
		case "stats":
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			verbs := map[string]int64{}
			byVerb.Range(func(k, v any) bool { verbs[k.(string)] = v.(*atomic.Int64).Load(); return true })
			emit(map[string]any{
				"kind": "stats", "requests": requests.Load(), "byVerb": verbs, "cpuMs": cpuMs() - cpuAtReset,
				"rssMB": statusKB("VmRSS") / 1024, "peakRssMB": statusKB("VmHWM") / 1024,
				"heapMB": float64(ms.HeapAlloc) / (1 << 20),
			})
		}
	}
}
