module ctrlkit.dev/tooling/go-bench/workqueue

go 1.26.0

require k8s.io/client-go v0.37.2

require (
	github.com/go-logr/logr v1.4.3 // indirect
	golang.org/x/time v0.15.0 // indirect
	k8s.io/apimachinery v0.37.2 // indirect
	k8s.io/klog/v2 v2.140.0 // indirect
	k8s.io/utils v0.0.0-20260626114624-be93311217bd // indirect
)
