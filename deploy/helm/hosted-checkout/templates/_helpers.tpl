{{/*
Helpers. Most take a "service context": (dict "root" $ "name" "<service key>" "svc" <its values block>),
optionally with "component" (labels of a pod that is not the service itself, e.g. a migration Job).
*/}}

{{/* Chart name, unless nameOverride. */}}
{{- define "hc.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Prefix of every resource name: "<release>-<chart>", or the release name when it contains the chart name. */}}
{{- define "hc.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of one service's Deployment, Service, ConfigMap...: "<fullname>-<service>". */}}
{{- define "hc.componentName" -}}
{{- printf "%s-%s" (include "hc.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Name of one service's migration Job (kept within 63 characters, the limit of its pods' job-name label). */}}
{{- define "hc.migrationJobName" -}}
{{- printf "%s-migrate" (include "hc.componentName" . | trunc 55 | trimSuffix "-") -}}
{{- end -}}

{{/* Prefix of a service's environment variables: "checkout" -> "CHECKOUT". Takes (dict "name" ...). */}}
{{- define "hc.envPrefix" -}}
{{- .name | upper | replace "-" "_" -}}
{{- end -}}

{{/* Labels that select a service's pods (Service, PodDisruptionBudget, spread constraints). */}}
{{- define "hc.selectorLabels" -}}
app.kubernetes.io/name: {{ include "hc.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component | default .name }}
{{- end -}}

{{/* Labels of every resource. */}}
{{- define "hc.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "hc.selectorLabels" . }}
app.kubernetes.io/version: {{ include "hc.imageTag" . | trunc 63 | quote }}
app.kubernetes.io/part-of: hosted-checkout
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- end -}}

{{/* Image tag of a service: its own image.tag, else image.tag, else the chart's appVersion. */}}
{{- define "hc.imageTag" -}}
{{- .svc.image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- end -}}

{{/*
Full image reference of a service: <registry>/<repository>@<digest> when image.digest is set (the tag is
then ignored: a digest names one build for good), else <registry>/<repository>:<tag>. The registry is
global.imageRegistry when set (bitnami's convention, for umbrella charts and mirrors), else image.registry.
*/}}
{{- define "hc.image" -}}
{{- $repository := .svc.image.repository -}}
{{- $registry := (.root.Values.global | default dict).imageRegistry | default .root.Values.image.registry -}}
{{- with $registry -}}
{{- $repository = printf "%s/%s" (trimSuffix "/" .) $repository -}}
{{- end -}}
{{- with .svc.image.digest -}}
{{- printf "%s@%s" $repository . -}}
{{- else -}}
{{- printf "%s:%s" $repository (include "hc.imageTag" .) -}}
{{- end -}}
{{- end -}}

{{/* Name of a gRPC service's headless Service (kept within 63 characters). */}}
{{- define "hc.headlessName" -}}
{{- printf "%s-headless" (include "hc.componentName" . | trunc 54 | trimSuffix "-") -}}
{{- end -}}

{{/*
Address at which other pods reach a gRPC service: its headless Service's DNS name, which answers every
ready pod's address, for the clients' DNS resolver and round_robin (docs/adr/0092). The headless
Service maps no port, so the port is the container's (the same number here).
*/}}
{{- define "hc.grpcAddress" -}}
{{- printf "dns:///%s.%s.svc:%v" (include "hc.headlessName" .) .root.Release.Namespace .svc.port -}}
{{- end -}}

{{/*
Non-secret environment of a service (its ConfigMap's data), as YAML. In order, later wins:
LOG_LEVEL, the EVENTS_* retention, PUBLIC_BASE_URL, NATS_URL, NATS_STREAM_REPLICAS (nats.streamReplicas) and <SERVICE>_GRPC_ADDRESS of every enabled gRPC service,
DASHBOARD_GRPC_ADDRESS (the dashboard's `grpc` extra port); OTEL_* (hc.otelConfig); then the service's own `env` values; then where the service itself
listens (0.0.0.0, for the probes and the Service).
*/}}
{{- define "hc.config" -}}
{{- $root := .root -}}
{{- $config := dict "LOG_LEVEL" $root.Values.logLevel -}}
{{- with $root.Values.eventRetention -}}
{{- $_ := set $config "EVENTS_STREAM_MAX_AGE_MS" (toString (int64 .streamMaxAgeMs)) -}}
{{- $_ := set $config "EVENTS_OUTBOX_RETENTION_MS" (toString (int64 .outboxRetentionMs)) -}}
{{- $_ := set $config "EVENTS_PROCESSED_RETENTION_MS" (toString (int64 .processedRetentionMs)) -}}
{{- $_ := set $config "EVENTS_PURGE_INTERVAL_MS" (toString (int64 .purgeIntervalMs)) -}}
{{- end -}}
{{- $_ := set $config "PUBLIC_BASE_URL" (required "publicBaseUrl is required, e.g. --set publicBaseUrl=https://pay.example.com" $root.Values.publicBaseUrl) -}}
{{- $_ := set $config "NATS_URL" (required "natsUrl is required, e.g. --set natsUrl=nats://nats.messaging.svc:4222" $root.Values.natsUrl) -}}
{{- $_ := set $config "NATS_STREAM_REPLICAS" (toString (int $root.Values.nats.streamReplicas)) -}}
{{- range $name, $svc := $root.Values.grpcServices -}}
{{- if $svc.enabled -}}
{{- $_ := set $config (printf "%s_GRPC_ADDRESS" (include "hc.envPrefix" (dict "name" $name))) (include "hc.grpcAddress" (dict "root" $root "name" $name "svc" $svc)) -}}
{{- end -}}
{{- end -}}
{{- /* The internal listeners that are not gRPC services of their own (docs/adr/0028). */ -}}
{{- range $name, $listener := dict "dashboard" "grpc" -}}
{{- $svc := get $root.Values $name -}}
{{- $port := include "hc.extraPort" (dict "svc" $svc "name" $listener) -}}
{{- if and $svc.enabled $port -}}
{{- $_ := set $config "DASHBOARD_GRPC_ADDRESS" (printf "%s.%s.svc:%s" (include "hc.componentName" (dict "root" $root "name" $name)) $root.Release.Namespace $port) -}}
{{- end -}}
{{- end -}}
{{- range $key, $value := fromYaml (include "hc.otelConfig" .) -}}
{{- $_ := set $config $key $value -}}
{{- end -}}
{{- /* The statement keys anyone may verify with: published by the pages, checked by the dashboard (docs/adr/0088). */ -}}
{{- if and $root.Values.statementPublicKeyset (has .name (list "pages" "dashboard")) -}}
{{- $_ := set $config "STATEMENT_PUBLIC_KEYSET" $root.Values.statementPublicKeyset -}}
{{- end -}}
{{- range $key, $value := .svc.env -}}
{{- $_ := set $config $key (toString $value) -}}
{{- end -}}
{{- if eq .name "gateway" -}}
{{- $_ := set $config "GATEWAY_HOST" "0.0.0.0" -}}
{{- $_ := set $config "GATEWAY_PORT" (toString .svc.port) -}}
{{- else if eq .name "dashboard" -}}
{{- $_ := set $config "DASHBOARD_HOST" "0.0.0.0" -}}
{{- $_ := set $config "DASHBOARD_PORT" (toString .svc.port) -}}
{{- with include "hc.extraPort" (dict "svc" .svc "name" "grpc") -}}
{{- $_ := set $config "DASHBOARD_GRPC_ADDRESS" (printf "0.0.0.0:%s" .) -}}
{{- end -}}
{{- else if eq .name "pages" -}}
{{- $_ := set $config "PAGES_HOST" "0.0.0.0" -}}
{{- $_ := set $config "PAGES_PORT" (toString .svc.port) -}}
{{- else -}}
{{- $_ := set $config (printf "%s_GRPC_ADDRESS" (include "hc.envPrefix" .)) (printf "0.0.0.0:%v" .svc.port) -}}
{{- end -}}
{{- toYaml $config -}}
{{- end -}}

{{/*
A service's database URL, from its existing Secret (never from values). Set "migration" true in the
context to prefer database.migrationSecretName.
*/}}
{{- define "hc.databaseEnv" -}}
{{- $secretName := required (printf "%s.database.secretName is required" .name) .svc.database.secretName -}}
{{- if .migration -}}
{{- $secretName = .svc.database.migrationSecretName | default $secretName -}}
{{- end -}}
- name: {{ include "hc.envPrefix" . }}_DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $secretName }}
      key: {{ .svc.database.secretKey | default "url" }}
{{- end -}}

{{/*
A workload's secret environment variables (secretEnv: VAR -> { secretName, secretKey }), each from an
existing Secret through secretKeyRef: settlement's NOTICE_SIGNING_SECRET, the SECRETS_ENCRYPTION_KEYS of
webhooks and the dashboard (docs/adr/0042). Never in a ConfigMap, never in values.
*/}}
{{- define "hc.secretEnv" -}}
{{- $name := .name -}}
{{- range $var, $ref := (.svc.secretEnv | default dict) }}
- name: {{ $var }}
  valueFrom:
    secretKeyRef:
      name: {{ required (printf "%s.secretEnv.%s.secretName is required" $name $var) $ref.secretName }}
      key: {{ $ref.secretKey | default "secret" }}
{{- end }}
{{- end -}}

{{/* Pod-spec fields shared by every pod of the chart (Deployments and migration Jobs). */}}
{{- define "hc.podSpec" -}}
{{- include "hc.podServiceAccount" . | trim }}
enableServiceLinks: false
terminationGracePeriodSeconds: {{ .root.Values.terminationGracePeriodSeconds }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
{{- with .root.Values.image.pullSecrets }}
imagePullSecrets:
  {{- range . }}
  - name: {{ . }}
  {{- end }}
{{- end }}
{{- with .root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
volumes:
  # The root filesystem is read-only; /tmp stays writable for libraries that need scratch space.
  - name: tmp
    emptyDir:
      sizeLimit: 64Mi
  {{- with and .nats (include "hc.natsVolumes" .) }}
  {{- . | nindent 2 }}
  {{- end }}
  {{- with include "hc.chartAndService" (dict "root" .root "svc" .svc "key" "extraVolumes") }}
  {{- . | nindent 2 }}
  {{- end }}
{{- end -}}

{{/* Container fields shared by every container of the chart. */}}
{{- define "hc.container" -}}
image: {{ include "hc.image" . | quote }}
imagePullPolicy: {{ .root.Values.image.pullPolicy }}
securityContext:
  {{- toYaml .root.Values.containerSecurityContext | nindent 2 }}
volumeMounts:
  - name: tmp
    mountPath: /tmp
  {{- with and .nats (include "hc.natsVolumeMounts" .) }}
  {{- . | nindent 2 }}
  {{- end }}
  {{- with include "hc.chartAndService" (dict "root" .root "svc" .svc "key" "extraVolumeMounts") }}
  {{- . | nindent 2 }}
  {{- end }}
{{- end -}}

{{/* Rolling update that never lowers capacity: a new pod must be ready before an old one stops. */}}
{{- define "hc.deploymentStrategy" -}}
strategy:
  type: RollingUpdate
  rollingUpdate:
    maxSurge: 1
    maxUnavailable: 0
{{- end -}}

{{/* Spread a service's pods over nodes when the cluster allows it. */}}
{{- define "hc.topologySpread" -}}
topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- include "hc.selectorLabels" . | nindent 8 }}
{{- end -}}

{{/* Pause before SIGTERM, so that endpoints drop the pod before it stops accepting work (see values). */}}
{{- define "hc.preStop" -}}
lifecycle:
  preStop:
    exec:
      command: ['sleep', '{{ .root.Values.preStopSleepSeconds }}']
{{- end -}}


{{/* Port of a workload's extra listener, by name: (dict "svc" <values block> "name" "admin"); "" when it has none. */}}
{{- define "hc.extraPort" -}}
{{- range $extra := .svc.extraPorts | default list -}}
{{- if eq $extra.name $.name -}}{{ $extra.port }}{{- end -}}
{{- end -}}
{{- end -}}

{{/* Container ports of a workload's extraPorts (settlement's notices, the dashboard's gRPC listener, ...). */}}
{{- define "hc.extraContainerPorts" -}}
{{- $ports := list -}}
{{- range .svc.extraPorts | default list -}}
{{- $ports = append $ports (dict "name" .name "containerPort" .port "protocol" "TCP") -}}
{{- end -}}
{{- with $ports }}{{ toYaml . }}{{ end -}}
{{- end -}}

{{/* Service ports of a workload's extraPorts, each forwarding to the container port of the same name. */}}
{{- define "hc.extraServicePorts" -}}
{{- $ports := list -}}
{{- range .svc.extraPorts | default list -}}
{{- $ports = append $ports (dict "name" .name "port" .port "targetPort" .name "protocol" "TCP") -}}
{{- end -}}
{{- with $ports }}{{ toYaml . }}{{ end -}}
{{- end -}}
