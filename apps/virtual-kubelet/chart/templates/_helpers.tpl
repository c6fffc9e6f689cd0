{{/*
The name of the release's objects outside its namespace (cluster-scoped, or in a shared
namespace): "<release>-virtual-kubelet", so two releases in one cluster never share one. With the
release "ctrlkit" these are deploy/'s names.
*/}}
{{- define "virtual-kubelet.clusterName" -}}
{{- printf "%s-virtual-kubelet" .Release.Name -}}
{{- end -}}
