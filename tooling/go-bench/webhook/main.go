// The controller-runtime side of the webhook bench (packages/runtime/bench/webhook.mjs): a
// webhook.Server serving one validating and one mutating webhook for ConfigMaps, with the
// same handler logic as the ctrlkit server the bench runs beside it, and controller-runtime's
// metrics registry (controller_runtime_webhook_*) on a plain HTTP port.
//
// Usage: webhook -host 127.0.0.1 -port 9443 -cert-dir DIR -metrics-addr 127.0.0.1:0
// Prints one JSON line on stdout once it serves: {"ready":true,"metricsAddr":"host:port"}.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// validator denies a ConfigMap whose data holds the key "deny", naming it; warns on none.
type validator struct{}

func (validator) ValidateCreate(_ context.Context, cm *corev1.ConfigMap) (admission.Warnings, error) {
	return check(cm)
}

func (validator) ValidateUpdate(_ context.Context, _, cm *corev1.ConfigMap) (admission.Warnings, error) {
	return check(cm)
}

func (validator) ValidateDelete(context.Context, *corev1.ConfigMap) (admission.Warnings, error) {
	return nil, nil
}

func check(cm *corev1.ConfigMap) (admission.Warnings, error) {
	if _, found := cm.Data["deny"]; found {
		return nil, fmt.Errorf("configmap %s: data.deny is not allowed", cm.Name)
	}
	return nil, nil
}

// defaulter sets the label defaulted=yes and the data key "mode" to "default" when unset.
type defaulter struct{}

func (defaulter) Default(_ context.Context, cm *corev1.ConfigMap) error {
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["defaulted"] = "yes"
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	if _, found := cm.Data["mode"]; !found {
		cm.Data["mode"] = "default"
	}
	return nil
}

func main() {
	host := flag.String("host", "127.0.0.1", "address to serve webhooks on")
	port := flag.Int("port", 9443, "port to serve webhooks on")
	certDir := flag.String("cert-dir", "", "folder holding tls.crt and tls.key")
	metricsAddr := flag.String("metrics-addr", "127.0.0.1:0", "address of the plain HTTP /metrics")
	flag.Parse()
	// No logs, as the ctrlkit server beside it (a no-op logger).
	ctrllog.SetLogger(logr.Discard())

	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		fail(err)
	}
	server := webhook.NewServer(webhook.Options{Host: *host, Port: *port, CertDir: *certDir})
	server.Register("/validate-configmap", admission.WithValidator[*corev1.ConfigMap](scheme, validator{}))
	server.Register("/mutate-configmap", admission.WithDefaulter[*corev1.ConfigMap](scheme, defaulter{}))

	listener, err := net.Listen("tcp", *metricsAddr)
	if err != nil {
		fail(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(metrics.Registry, promhttp.HandlerOpts{}))
	go func() { _ = http.Serve(listener, mux) }()

	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- server.Start(ctx) }()
	// Ready once the TLS port accepts connections.
	for {
		if conn, err := net.Dial("tcp", net.JoinHostPort(*host, fmt.Sprint(*port))); err == nil {
			_ = conn.Close()
			break
		}
		select {
		case err := <-done:
			fail(err)
		default:
		}
	}
	line, _ := json.Marshal(map[string]any{"ready": true, "metricsAddr": listener.Addr().String()})
	fmt.Println(string(line))
	if err := <-done; err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "webhook:", err)
	os.Exit(1)
}
