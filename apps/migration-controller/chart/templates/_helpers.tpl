{{/*
The name of the release's objects outside its namespace (cluster-scoped, or in a shared
namespace): "<release>-migration-controller", so two releases in one cluster never share one. With the
release "ctrlkit" these are deploy/'s names.
*/}}
{{- define "migration-controller.clusterName" -}}
{{- printf "%s-migration-controller" .Release.Name -}}
{{- end -}}
