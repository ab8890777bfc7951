{{/*
`helm test` (templates/tests/, files/helm-test.ts): what the test pods check and how they run.
*/}}

{{/* Context of the test pods: the gateway's image, labels of their own (component helm-test, which the NetworkPolicies admit). */}}
{{- define "hc.testContext" -}}
{{- toYaml (dict "name" "gateway" "component" "helm-test") -}}
{{- end -}}

{{/*
Readiness path of an HTTP workload (the path of its readinessProbe); "/readyz" unless listed. A gRPC
service needs none: it is asked the standard gRPC health check.
*/}}
{{- define "hc.readinessPath" -}}
{{- get (dict "dashboard" "/dashboard/readyz") .name | default "/readyz" -}}
{{- end -}}

{{/*
What the `ready` test checks, as JSON: every Deployment of the release (hc.workloads) through its
Service's DNS name: each entry of grpcServices by the gRPC health check on its port, a workload with a
`service` block (HTTP behind a Service port) by GET of its readiness path, any other by a TCP connection.
A new service is checked as soon as its values block exists.
*/}}
{{- define "hc.testTargets" -}}
{{- $root := . -}}
{{- $targets := list -}}
{{- range $name, $svc := fromYaml (include "hc.workloads" $root) -}}
{{- $host := printf "%s.%s.svc" (include "hc.componentName" (dict "root" $root "name" $name)) $root.Release.Namespace -}}
{{- if hasKey $root.Values.grpcServices $name -}}
{{- $targets = append $targets (dict "name" $name "grpc" (printf "%s:%v" $host $svc.port)) -}}
{{- else if $svc.service -}}
{{- $targets = append $targets (dict "name" $name "http" (printf "http://%s:%v%s" $host $svc.service.port (include "hc.readinessPath" (dict "name" $name)))) -}}
{{- else -}}
{{- $targets = append $targets (dict "name" $name "tcp" (printf "%s:%v" $host $svc.port)) -}}
{{- end -}}
{{- end -}}
{{- toJson $targets -}}
{{- end -}}

{{/* One test-hook Pod: (dict "root" $ "check" "ready" "weight" "1" "env" <list of env entries>). */}}
{{- define "hc.testPod" -}}
{{- $root := .root -}}
{{- $ctx := merge (dict "root" $root "svc" $root.Values.gateway) (fromYaml (include "hc.testContext" $root)) -}}
apiVersion: v1
kind: Pod
metadata:
  name: {{ printf "%s-test-%s" (include "hc.fullname" $root) .check | trunc 63 | trimSuffix "-" }}
  labels:
    {{- include "hc.labels" $ctx | nindent 4 }}
  annotations:
    helm.sh/hook: test
    helm.sh/hook-weight: {{ .weight | quote }}
    # The last run's pods stay for `helm test --logs` and kubectl logs; the next run replaces them.
    helm.sh/hook-delete-policy: before-hook-creation
spec:
  restartPolicy: Never
  automountServiceAccountToken: false
  enableServiceLinks: false
  securityContext:
    {{- toYaml $root.Values.podSecurityContext | nindent 4 }}
  {{- with $root.Values.image.pullSecrets }}
  imagePullSecrets:
    {{- range . }}
    - name: {{ . }}
    {{- end }}
  {{- end }}
  {{- with $root.Values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $root.Values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  volumes:
    - name: tmp
      emptyDir:
        sizeLimit: 16Mi
    - name: tests
      configMap:
        name: {{ include "hc.fullname" $root }}-tests
  containers:
    - name: {{ .check }}
      image: {{ include "hc.image" $ctx | quote }}
      imagePullPolicy: {{ $root.Values.image.pullPolicy }}
      securityContext:
        {{- toYaml $root.Values.containerSecurityContext | nindent 8 }}
      command: ['node', '/hc-test/helm-test.ts', {{ .check | quote }}]
      env:
        {{- toYaml .env | nindent 8 }}
      volumeMounts:
        - name: tmp
          mountPath: /tmp
        - name: tests
          mountPath: /hc-test
          readOnly: true
      resources:
        {{- toYaml $root.Values.tests.resources | nindent 8 }}
{{- end -}}
