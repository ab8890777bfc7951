{{/*
The alerts of the PrometheusRule (templates/metrics.yaml): each one a human is paged for, over metrics
the services really serve on /metrics (OpenTelemetry's Prometheus exporter: dots become underscores,
counters get _total; docs/operations.md lists them with their runbooks). Series are the ServiceMonitor's:
job "<release>-hosted-checkout-<service>-metrics" in the release's namespace, so every service of the
release, a new one included, is covered by the job pattern. Thresholds: metrics.prometheusRule.thresholds.
Tested against a running platform's scrape with promtool (e2e/test/prometheus-rules.e2e.test.ts).
*/}}
{{- define "hc.alerts" -}}
{{- $t := .Values.metrics.prometheusRule.thresholds -}}
{{- $ns := printf "namespace=%q" .Release.Namespace -}}
{{- $all := printf "%s, job=~%q" $ns (printf "%s-.+-metrics" (include "hc.fullname" .)) -}}
{{- $job := dict -}}
{{- range $name := list "gateway" "settlement" "checkout" -}}
{{- $_ := set $job $name (printf "%s, job=%q" $ns (printf "%s-metrics" (include "hc.componentName" (dict "root" $ "name" $name) | trunc 55 | trimSuffix "-"))) -}}
{{- end -}}
{{- $labels := toYaml (merge (dict "severity" .Values.metrics.prometheusRule.severity) (.Values.metrics.prometheusRule.alertLabels | default dict)) -}}
- alert: HostedCheckoutGateway5xx
  expr: |
    sum by (namespace, job) (rate(http_server_request_duration_count{ {{- $job.gateway }}, http_response_status_code=~"5.."}[5m]))
      / sum by (namespace, job) (rate(http_server_request_duration_count{ {{- $job.gateway }}}[5m]))
      > {{ $t.gateway5xxRatio }}
  for: 5m
  labels:
    {{- $labels | nindent 4 }}
  annotations:
    summary: 'The gateway answers {{ "{{" }} $value | humanizePercentage {{ "}}" }} of API requests with 5xx'
    runbook: docs/operations.md, "Where to look when something is slow" (http.server.request.duration by http.route, then its trace)
- alert: HostedCheckoutGrpcErrors
  # Server-side failures only (UNKNOWN, DEADLINE_EXCEEDED, INTERNAL, UNAVAILABLE, DATA_LOSS); a refused
  # request (INVALID_ARGUMENT, NOT_FOUND, …) is the caller's, not an outage.
  expr: |
    sum by (namespace, job) (rate(rpc_server_call_duration_count{ {{- $all }}, rpc_grpc_status_code=~"2|4|13|14|15"}[5m]))
      / sum by (namespace, job) (rate(rpc_server_call_duration_count{ {{- $all }}}[5m]))
      > {{ $t.grpcErrorRatio }}
  for: 5m
  labels:
    {{- $labels | nindent 4 }}
  annotations:
    summary: '{{ "{{" }} $labels.job {{ "}}" }}: {{ "{{" }} $value | humanizePercentage {{ "}}" }} of gRPC calls fail'
    runbook: docs/operations.md (rpc.server.call.duration by rpc.method and rpc.grpc.status_code)
- alert: HostedCheckoutOutboxLag
  expr: max by (namespace, job) (hc_outbox_oldest_age{ {{- $all }}}) > {{ $t.outboxOldestAgeSeconds }}
  for: 5m
  labels:
    {{- $labels | nindent 4 }}
  annotations:
    summary: '{{ "{{" }} $labels.job {{ "}}" }}: the oldest unpublished outbox row is {{ "{{" }} $value | humanizeDuration {{ "}}" }} old'
    runbook: docs/operations.md, "Outbox backlog growing"
- alert: HostedCheckoutConsumerLag
  expr: max by (namespace, job, consumer) (hc_consumer_pending{ {{- $all }}}) > {{ $t.consumerPending }}
  for: 10m
  labels:
    {{- $labels | nindent 4 }}
  annotations:
    summary: 'JetStream consumer {{ "{{" }} $labels.consumer {{ "}}" }} has {{ "{{" }} $value {{ "}}" }} messages not yet delivered'
    runbook: docs/operations.md, "Consumer redeliveries" and "Webhook delivery lag"
- alert: HostedCheckoutWebhookBacklog
  expr: max by (namespace) (hc_queue_depth{ {{- $all }}, queue="webhooks.deliveries"}) > {{ $t.webhookBacklog }}
  for: 15m
  labels:
    {{- $labels | nindent 4 }}
  annotations:
    summary: '{{ "{{" }} $value {{ "}}" }} webhook deliveries are waiting'
    runbook: docs/operations.md, "Webhook delivery lag"
- alert: HostedCheckoutWebhookOldestUndelivered
  expr: max by (namespace) (hc_queue_oldest_age{ {{- $all }}, queue="webhooks.deliveries"}) > {{ $t.webhookOldestAgeSeconds }}
  for: 15m
  labels:
    {{- $labels | nindent 4 }}
  annotations:
    summary: 'The oldest undelivered webhook is {{ "{{" }} $value | humanizeDuration {{ "}}" }} old'
    runbook: docs/operations.md, "Webhook delivery lag"
- alert: HostedCheckoutSettlementVerdictsStuck
  # A verdict (paid, held, failed) leaves settlement through its outbox and reaches checkout through the
  # durable consumer checkout-settlement-verdicts; stuck on either side, buyers' payments stay pending.
  expr: |
    max by (namespace) (hc_outbox_oldest_age{ {{- $job.settlement }}}) > {{ $t.verdictAgeSeconds }}
      or max by (namespace) (hc_consumer_pending{ {{- $job.checkout }}, consumer="checkout-settlement-verdicts"}
        + hc_consumer_ack_pending{ {{- $job.checkout }}, consumer="checkout-settlement-verdicts"}) > 0
  for: 10m
  labels:
    {{- $labels | nindent 4 }}
  annotations:
    summary: 'Settlement verdicts are not reaching checkout: payments stay pending'
    runbook: docs/operations.md, "Outbox backlog growing" (settlement) and the consumer checkout-settlement-verdicts
- alert: HostedCheckoutMailQueueAge
  expr: max by (namespace) (hc_queue_oldest_age{ {{- $all }}, queue="notifications.mails"}) > {{ $t.mailOldestAgeSeconds }}
  for: 10m
  labels:
    {{- $labels | nindent 4 }}
  annotations:
    summary: 'The oldest unsent mail (receipt, alert, invitation) is {{ "{{" }} $value | humanizeDuration {{ "}}" }} old'
    runbook: docs/notifications.md (the SMTP relay, MAIL_* retries)
{{- end -}}
