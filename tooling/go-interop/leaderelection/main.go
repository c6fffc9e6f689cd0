// Command leaderelection runs client-go's tools/leaderelection on a coordination.k8s.io/v1
// Lease, so @ctrlkit/runtime's interop test can pit a TypeScript LeaderElector against it
// on the same Lease (packages/runtime/src/leader-election/leader-elector-interop.int.test.ts).
//
// It prints one JSON object per line on stdout, one per callback:
//
//	{"event":"started"}                      OnStartedLeading
//	{"event":"stopped"}                      OnStoppedLeading
//	{"event":"new-leader","identity":"..."}  OnNewLeader
//
// SIGTERM (or SIGINT) cancels the context: the elector stops, releases the Lease when
// -release-on-cancel is set, and the program exits 0. SIGKILL simulates a crash (no release).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

var mu sync.Mutex // callbacks run on several goroutines: one line at a time

// emit prints one event as a JSON line.
func emit(event, identity string) {
	mu.Lock()
	defer mu.Unlock()
	line := map[string]string{"event": event}
	if event == "new-leader" {
		line["identity"] = identity
	}
	if err := json.NewEncoder(os.Stdout).Encode(line); err != nil {
		panic(err)
	}
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "path to the kubeconfig")
	namespace := flag.String("namespace", "default", "namespace of the Lease")
	name := flag.String("name", "", "name of the Lease")
	identity := flag.String("identity", "", "identity to compete as")
	leaseDuration := flag.Duration("lease-duration", 15*time.Second, "LeaseDuration")
	renewDeadline := flag.Duration("renew-deadline", 10*time.Second, "RenewDeadline")
	retryPeriod := flag.Duration("retry-period", 2*time.Second, "RetryPeriod")
	releaseOnCancel := flag.Bool("release-on-cancel", false, "ReleaseOnCancel: release the Lease on SIGTERM")
	flag.Parse()

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintln(os.Stderr, "kubeconfig:", err)
		os.Exit(2)
	}
	client := kubernetes.NewForConfigOrDie(config)
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: *namespace, Name: *name},
		Client:     client.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: *identity},
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	elector, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   *leaseDuration,
		RenewDeadline:   *renewDeadline,
		RetryPeriod:     *retryPeriod,
		ReleaseOnCancel: *releaseOnCancel,
		Name:            *name,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { emit("started", "") },
			OnStoppedLeading: func() { emit("stopped", "") },
			OnNewLeader:      func(id string) { emit("new-leader", id) },
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "leader election config:", err)
		os.Exit(2)
	}
	elector.Run(ctx) // returns after stopping (and releasing); OnStoppedLeading has run
}
