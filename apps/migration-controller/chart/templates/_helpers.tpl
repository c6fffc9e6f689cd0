{{/*
The name of the release's objects outside its namespace (cluster-scoped, or in a shared
namespace): "<release>-migration-controller", so two releases in one cluster never share one. With the
release "ctrlkit" these are deploy/'s names.
*/}}
{{- define "migration-controller.clusterName" -}}
{{- printf "%s-migration-controller" .Release.Name -}}
{{- end -}}

{{/*
The name of ctrlkit-forklift-api's cluster-scoped objects (its ClusterRole and binding, the
webhook configurations): "<release>-forklift-api"; with the release "ctrlkit", deploy/'s.
*/}}
{{- define "migration-controller.forkliftApiClusterName" -}}
{{- printf "%s-forklift-api" .Release.Name -}}
{{- end -}}

{{/*
The kubernetes.io/tls Secret of ctrlkit-forklift-api's serving certificate.
*/}}
{{- define "migration-controller.forkliftApiSecretName" -}}
{{- .Values.forkliftApi.certSecretName | default "ctrlkit-forklift-api-cert" -}}
{{- end -}}
