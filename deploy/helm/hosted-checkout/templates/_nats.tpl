{{/*
Credentials that never go into a ConfigMap (deploy/README.md, "Secrets only in Secrets"): the gRPC
services' NATS login and TLS files (nats.*; read by packages/events' natsSecurityOptions), mounted from
existing Secrets or a ConfigMap, and the OTLP exporter's headers (telemetry.otlpHeaders).
Files are mounted under /etc/hc/nats; the variables that name them hold paths, not secrets.
*/}}

{{/* Volumes of the NATS login and CA files, as YAML list items ("" without any). */}}
{{- define "hc.natsVolumes" -}}
{{- $auth := .root.Values.nats.auth -}}
{{- $tls := .root.Values.nats.tls -}}
{{- $volumes := list -}}
{{- if has $auth.type (list "creds" "nkey") -}}
{{- $key := ternary $auth.credsKey $auth.seedKey (eq $auth.type "creds") -}}
{{- $volumes = append $volumes (dict "name" "nats-auth" "secret" (dict "secretName" $auth.secretName "defaultMode" 288 "items" (list (dict "key" $key "path" $key)))) -}}
{{- end -}}
{{- if and $tls.caSecretName $tls.caConfigMapName -}}
{{- fail "nats.tls: set caSecretName or caConfigMapName, not both" -}}
{{- end -}}
{{- with $tls.caSecretName -}}
{{- $volumes = append $volumes (dict "name" "nats-ca" "secret" (dict "secretName" . "items" (list (dict "key" $tls.caKey "path" "ca.crt")))) -}}
{{- end -}}
{{- with $tls.caConfigMapName -}}
{{- $volumes = append $volumes (dict "name" "nats-ca" "configMap" (dict "name" . "items" (list (dict "key" $tls.caKey "path" "ca.crt")))) -}}
{{- end -}}
{{- with $tls.clientCertSecretName -}}
{{- $volumes = append $volumes (dict "name" "nats-client-cert" "secret" (dict "secretName" . "defaultMode" 288)) -}}
{{- end -}}
{{- with $volumes }}{{ toYaml . }}{{ end -}}
{{- end -}}

{{/* Mounts of those volumes, as YAML list items. */}}
{{- define "hc.natsVolumeMounts" -}}
{{- $mounts := list -}}
{{- range (fromYamlArray (include "hc.natsVolumes" . | default "[]")) -}}
{{- $dir := get (dict "nats-auth" "auth" "nats-ca" "ca" "nats-client-cert" "client") .name -}}
{{- $mounts = append $mounts (dict "name" .name "mountPath" (printf "/etc/hc/nats/%s" $dir) "readOnly" true) -}}
{{- end -}}
{{- with $mounts }}{{ toYaml . }}{{ end -}}
{{- end -}}

{{/* NATS_* variables naming those files, and the user and password from their Secret. */}}
{{- define "hc.natsEnv" -}}
{{- $auth := .root.Values.nats.auth -}}
{{- $tls := .root.Values.nats.tls -}}
{{- if eq $auth.type "creds" }}
- name: NATS_CREDS_FILE
  value: /etc/hc/nats/auth/{{ $auth.credsKey }}
{{- else if eq $auth.type "nkey" }}
- name: NATS_NKEY_SEED_FILE
  value: /etc/hc/nats/auth/{{ $auth.seedKey }}
{{- else if eq $auth.type "password" }}
- name: NATS_USER
  valueFrom:
    secretKeyRef:
      name: {{ $auth.secretName }}
      key: {{ $auth.userKey }}
- name: NATS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $auth.secretName }}
      key: {{ $auth.passwordKey }}
{{- end }}
{{- if or $tls.caSecretName $tls.caConfigMapName }}
- name: NATS_CA_FILE
  value: /etc/hc/nats/ca/ca.crt
{{- end }}
{{- if $tls.clientCertSecretName }}
- name: NATS_TLS_CERT_FILE
  value: /etc/hc/nats/client/tls.crt
- name: NATS_TLS_KEY_FILE
  value: /etc/hc/nats/client/tls.key
{{- end }}
{{- end -}}

{{/* OTEL_EXPORTER_OTLP_HEADERS from its Secret, when set and an OTLP endpoint is. */}}
{{- define "hc.otlpHeadersEnv" -}}
{{- $headers := .root.Values.telemetry.otlpHeaders | default dict -}}
{{- if and .root.Values.telemetry.otlpEndpoint $headers.secretName }}
- name: OTEL_EXPORTER_OTLP_HEADERS
  valueFrom:
    secretKeyRef:
      name: {{ $headers.secretName }}
      key: {{ $headers.secretKey | default "headers" }}
{{- end }}
{{- end -}}

{{/*
Environment of a Deployment's container after its own: the OTLP headers, the NATS login and TLS files of
a gRPC service ("nats" true in the context), then extraEnv. As YAML list items ("" for none).
*/}}
{{- define "hc.workloadEnv" -}}
{{- include "hc.otlpHeadersEnv" . -}}
{{- if .nats }}{{ include "hc.natsEnv" . }}{{ end -}}
{{- with include "hc.extraEnv" . }}
{{ . }}
{{- end -}}
{{- end -}}
