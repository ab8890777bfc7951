{{/*
What a platform team adds to the chart's pods (bitnami's conventions; deploy/README.md, "Conventions"):
ServiceAccounts, pod annotations and labels, extra variables, envFrom sources, volumes and mounts, init
containers and sidecars, startup probes. Each takes a service context (see _helpers.tpl); the chart-wide
key of the same name comes first, the service's own after it.
*/}}

{{/* Name of the ServiceAccount a service's pods run as: its own when created, else the named one, else the namespace's "default". */}}
{{- define "hc.serviceAccountName" -}}
{{- $sa := .svc.serviceAccount | default dict -}}
{{- if $sa.create -}}
{{- $sa.name | default (include "hc.componentName" .) -}}
{{- else -}}
{{- $sa.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/*
ServiceAccount fields of a pod spec. A migration Job runs before the release's ServiceAccounts exist on a
first install (it is a pre-install hook), so it uses the service's ServiceAccount only when that one is an
existing one (create: false, name set), and the namespace's default otherwise.
*/}}
{{- define "hc.podServiceAccount" -}}
{{- $sa := .svc.serviceAccount | default dict -}}
{{- if or (not .migration) (not $sa.create) }}
serviceAccountName: {{ include "hc.serviceAccountName" . }}
{{- end }}
automountServiceAccountToken: {{ $sa.automountServiceAccountToken | default false }}
{{- end -}}

{{/* A pod template's metadata: the chart's labels over podLabels; podAnnotations and the given "annotations" (dict). */}}
{{- define "hc.podMetadata" -}}
{{- $labels := merge (fromYaml (include "hc.labels" .)) (deepCopy (.svc.podLabels | default dict)) (deepCopy (.root.Values.podLabels | default dict)) -}}
{{- $annotations := merge (deepCopy (.annotations | default dict)) (deepCopy (.svc.podAnnotations | default dict)) (deepCopy (.root.Values.podAnnotations | default dict)) -}}
labels:
  {{- toYaml $labels | nindent 2 }}
{{- with $annotations }}
annotations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* A list value, chart-wide first then the service's: (dict "root" $ "svc" $svc "key" "extraEnv"). */}}
{{- define "hc.chartAndService" -}}
{{- $all := concat (get .root.Values .key | default list) (get .svc .key | default list) -}}
{{- with $all }}{{ toYaml . }}{{ end -}}
{{- end -}}

{{/* extraEnv entries of a container (chart-wide, then the service's), as YAML list items. */}}
{{- define "hc.extraEnv" -}}
{{- include "hc.chartAndService" (dict "root" .root "svc" .svc "key" "extraEnv") -}}
{{- end -}}

{{/* envFrom of a container: its ConfigMap when it has one ("configMap" in the context), then extraEnvFrom. */}}
{{- define "hc.envFrom" -}}
{{- $from := list -}}
{{- if .configMap -}}
{{- $from = append $from (dict "configMapRef" (dict "name" (include "hc.componentName" .))) -}}
{{- end -}}
{{- $from = concat $from (fromYamlArray (include "hc.chartAndService" (dict "root" .root "svc" .svc "key" "extraEnvFrom") | default "[]")) -}}
{{- with $from }}
envFrom:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* initContainers of a Deployment's pods, and its sidecars (put after the service's container). */}}
{{- define "hc.initContainers" -}}
{{- with .svc.initContainers }}
initContainers:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
{{- define "hc.sidecars" -}}
{{- with .svc.sidecars }}{{ toYaml . }}{{ end -}}
{{- end -}}

{{/* startupProbe of a long-running container: the given check ("check": an httpGet/grpc/tcpSocket dict) with the chart-wide timing. */}}
{{- define "hc.startupProbe" -}}
startupProbe:
  {{- toYaml .check | nindent 2 }}
  periodSeconds: {{ .root.Values.startupProbe.periodSeconds }}
  timeoutSeconds: {{ .root.Values.startupProbe.timeoutSeconds }}
  failureThreshold: {{ .root.Values.startupProbe.failureThreshold }}
{{- end -}}
