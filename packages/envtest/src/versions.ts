//! The Kubernetes and etcd versions this package builds, as pinned by its go/*/go.mod files.

/** The version of kube-apiserver built from `go/kube-apiserver/go.mod` (`k8s.io/kubernetes`). */
export const KUBERNETES_VERSION = '1.37.2';
/** The version of etcd built from `go/etcd/go.mod` (`go.etcd.io/etcd/server/v3`). */
export const ETCD_VERSION = '3.7.3';
