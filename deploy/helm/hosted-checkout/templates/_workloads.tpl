{{/*
Every Deployment of the chart, as YAML: { <name>: <its values block> }. The gateway, each enabled entry
of grpcServices, and any other top-level values block with `enabled` and `image.repository` (a new
process such as `pages` or `emulator` joins by adding its block, and its entry in values.schema.json). PodDisruptionBudgets,
HorizontalPodAutoscalers and NetworkPolicies are made for each of them (availability.yaml,
networkpolicies.yaml), so a new Deployment gets all three without a template of its own.
*/}}
{{- define "hc.workloads" -}}
{{- $all := dict -}}
{{- if .Values.gateway.enabled -}}
{{- $_ := set $all "gateway" .Values.gateway -}}
{{- end -}}
{{- range $name, $svc := .Values.grpcServices -}}
{{- if $svc.enabled -}}
{{- $_ := set $all $name $svc -}}
{{- end -}}
{{- end -}}
{{- range $key, $block := .Values -}}
{{- if and (kindIs "map" $block) (not (has $key (list "gateway" "grpcServices" "image"))) (hasKey $block "enabled") (hasKey $block "image") -}}
{{- if and $block.enabled (kindIs "map" $block.image) (hasKey $block.image "repository") -}}
{{- $_ := set $all $key $block -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toYaml $all -}}
{{- end -}}

{{/* A workload's autoscaling settings: the chart-wide `autoscaling` with its own block on top. */}}
{{- define "hc.autoscaling" -}}
{{- toYaml (merge (deepCopy (.svc.autoscaling | default dict)) .root.Values.autoscaling) -}}
{{- end -}}

{{/* "true" when a HorizontalPodAutoscaler owns the workload's replica count (the Deployment then sets none). */}}
{{- define "hc.autoscaled" -}}
{{- if (fromYaml (include "hc.autoscaling" .)).enabled -}}true{{- end -}}
{{- end -}}

{{/* `replicas:` of a Deployment, left out when autoscaled (an upgrade must not reset the HPA's count). */}}
{{- define "hc.replicas" -}}
{{- if not (include "hc.autoscaled" .) -}}
replicas: {{ .svc.replicas }}
{{- end -}}
{{- end -}}

{{/* OTEL_* variables of a workload (standard OpenTelemetry SDK configuration; docs/operations.md). */}}
{{- define "hc.otelConfig" -}}
{{- $t := .root.Values.telemetry -}}
{{- $config := dict "OTEL_SERVICE_NAME" (printf "hc-%s" .name) -}}
{{- $exporters := list -}}
{{- if $t.otlpEndpoint -}}
{{- $_ := set $config "OTEL_EXPORTER_OTLP_ENDPOINT" $t.otlpEndpoint -}}
{{- $_ := set $config "OTEL_EXPORTER_OTLP_PROTOCOL" $t.otlpProtocol -}}
{{- $_ := set $config "OTEL_TRACES_SAMPLER" $t.tracesSampler -}}
{{- $_ := set $config "OTEL_TRACES_SAMPLER_ARG" (toString $t.tracesSamplerArg) -}}
{{- $exporters = append $exporters "otlp" -}}
{{- end -}}
{{- if $t.prometheus.enabled -}}
{{- $exporters = append $exporters "prometheus" -}}
{{- $_ := set $config "OTEL_EXPORTER_PROMETHEUS_HOST" "0.0.0.0" -}}
{{- $_ := set $config "OTEL_EXPORTER_PROMETHEUS_PORT" (toString $t.prometheus.port) -}}
{{- end -}}
{{- if $exporters -}}
{{- $_ := set $config "OTEL_METRICS_EXPORTER" (join "," $exporters) -}}
{{- end -}}
{{- with $t.resourceAttributes -}}
{{- $_ := set $config "OTEL_RESOURCE_ATTRIBUTES" . -}}
{{- end -}}
{{- toYaml $config -}}
{{- end -}}

{{/* The metrics port of a container, when Prometheus scraping is on. */}}
{{- define "hc.metricsPort" -}}
{{- if .root.Values.telemetry.prometheus.enabled -}}
- name: metrics
  containerPort: {{ .root.Values.telemetry.prometheus.port }}
  protocol: TCP
{{- end -}}
{{- end -}}
