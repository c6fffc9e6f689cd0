{{/*
The name of the release's objects outside its namespace (cluster-scoped, or in a shared
namespace): "<release>-dra-example-driver", so two releases in one cluster never share one. With the
release "ctrlkit" these are deploy/'s names.
*/}}
{{- define "dra-example-driver.clusterName" -}}
{{- printf "%s-dra-example-driver" .Release.Name -}}
{{- end -}}

{{/*
The kubernetes.io/tls Secret the webhook serves with: webhook.certSecretName, default
"dra-example-webhook-cert" in the release's namespace.
*/}}
{{- define "dra-example-driver.webhookSecretName" -}}
{{- .Values.webhook.certSecretName | default "dra-example-webhook-cert" -}}
{{- end -}}
