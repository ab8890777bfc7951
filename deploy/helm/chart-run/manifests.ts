/**
 * What `pnpm chart:run` runs, read from the chart as helm renders it (the rendered manifests are the
 * one source of truth; ADR 0044): migration Jobs, Deployments' pod specs, the Services that name them,
 * ConfigMaps, and the Ingress. Pure functions: no engine, no network.
 */
import { parseAllDocuments } from 'yaml';

interface Meta {
  name: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
  };
}
interface Probe {
  httpGet?: { path: string; port: number | string };
  grpc?: { port: number };
  tcpSocket?: { port: number | string };
}
export interface ContainerSpec {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  ports?: Array<{ name?: string; containerPort: number }>;
  readinessProbe?: Probe;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  resources?: { limits?: { memory?: string } };
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
}
export interface PodSpec {
  securityContext?: { runAsUser?: number; runAsGroup?: number };
  terminationGracePeriodSeconds?: number;
  volumes?: Array<{
    name: string;
    emptyDir?: unknown;
    configMap?: { name: string };
    secret?: { secretName: string; items?: Array<{ key: string; path: string }> };
  }>;
  containers: ContainerSpec[];
}
interface Manifest {
  kind: string;
  metadata: Meta;
  data?: Record<string, string>;
  spec?: Partial<PodSpec> & {
    replicas?: number;
    template?: { metadata?: Meta; spec: PodSpec };
    selector?: Record<string, string> | { matchLabels?: Record<string, string> };
    ports?: Array<{ name?: string; port: number; targetPort?: number | string }>;
    rules?: Array<{
      http?: { paths: Array<{ path: string; backend: { service: { name: string; port: { name?: string; number?: number } } } }> };
    }>;
  };
}

export interface Workload {
  kind: 'Job' | 'Deployment' | 'Pod';
  name: string;
  labels: Record<string, string>;
  pod: PodSpec;
  /** DNS names other pods reach this one by: the Services whose selector matches its labels. */
  aliases: string[];
  /** Pods of a Deployment (spec.replicas; 1 for a Job or a Pod). */
  replicas: number;
}
export interface IngressRoute {
  path: string;
  /** host:port on the runner's network: the Service's name and the container port it targets. */
  target: string;
}
export interface Rendered {
  jobs: Workload[];
  deployments: Workload[];
  /** The `helm test` hook Pods, in the order Helm runs them (hook weight, then name). */
  tests: Workload[];
  configMaps: Map<string, Record<string, string>>;
  /** Every Secret the pods read (name → keys); the cluster provides them, so the runner makes them. */
  secretsRead: Map<string, Set<string>>;
  ingress: IngressRoute[];
}

const NAMESPACE_SUFFIXES = ['', '.default', '.default.svc', '.default.svc.cluster.local'];

export function readRendered(text: string): Rendered {
  const manifests = parseAllDocuments(text)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((m): m is Manifest => Boolean(m?.kind));
  const services = manifests.filter((m) => m.kind === 'Service');
  const podOf = (m: Manifest): Workload => {
    const labels = m.spec?.template?.metadata?.labels ?? {};
    const aliases = services
      .filter((s) => {
        const selector = (s.spec?.selector ?? {}) as Record<string, string>;
        return Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
      })
      .flatMap((s) => NAMESPACE_SUFFIXES.map((suffix) => `${s.metadata.name}${suffix}`));
    const replicas = m.kind === 'Deployment' ? (m.spec?.replicas ?? 1) : 1;
    return { kind: m.kind as Workload['kind'], name: m.metadata.name, labels, pod: m.spec!.template!.spec, aliases, replicas };
  };
  const jobs = manifests.filter((m) => m.kind === 'Job').map(podOf);
  const deployments = manifests.filter((m) => m.kind === 'Deployment').map(podOf);
  const tests = testPods(manifests);
  checkServicePorts(services, deployments);
  const configMaps = new Map(manifests.filter((m) => m.kind === 'ConfigMap').map((m) => [m.metadata.name, m.data ?? {}]));

  const secretsRead = new Map<string, Set<string>>();
  for (const w of [...jobs, ...deployments]) {
    // Secret volumes (the NATS CA): the keys their items name.
    for (const v of w.pod.volumes ?? []) {
      for (const item of v.secret?.items ?? []) {
        secretsRead.set(v.secret!.secretName, (secretsRead.get(v.secret!.secretName) ?? new Set()).add(item.key));
      }
    }
    for (const c of w.pod.containers) {
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref) secretsRead.set(ref.name, (secretsRead.get(ref.name) ?? new Set()).add(ref.key));
      }
    }
  }

  const ingress: IngressRoute[] = [];
  for (const m of manifests.filter((x) => x.kind === 'Ingress')) {
    for (const rule of m.spec?.rules ?? []) {
      for (const p of rule.http?.paths ?? []) {
        const service = services.find((s) => s.metadata.name === p.backend.service.name);
        const port = service?.spec?.ports?.find(
          (sp) => sp.name === p.backend.service.port.name || sp.port === p.backend.service.port.number,
        );
        if (!service || !port) throw new Error(`Ingress ${m.metadata.name}: no Service port for ${JSON.stringify(p.backend)}`);
        const pod = deployments.find((d) => d.aliases.includes(service.metadata.name));
        ingress.push({ path: p.path, target: `${service.metadata.name}:${targetPort(port.targetPort ?? port.port, pod)}` });
      }
    }
  }
  return { jobs, deployments, tests, configMaps, secretsRead, ingress };
}

/** Pods with the helm.sh/hook test annotation, sorted as Helm runs them: by hook weight, then by name. */
function testPods(manifests: Manifest[]): Workload[] {
  const weight = (m: Manifest): number => Number(m.metadata.annotations?.['helm.sh/hook-weight'] ?? 0);
  return manifests
    .filter((m) => m.kind === 'Pod' && (m.metadata.annotations?.['helm.sh/hook'] ?? '').split(',').includes('test'))
    .sort((a, b) => weight(a) - weight(b) || a.metadata.name.localeCompare(b.metadata.name))
    .map((m) => ({
      kind: 'Pod' as const,
      name: m.metadata.name,
      labels: m.metadata.labels ?? {},
      pod: m.spec as PodSpec,
      aliases: [] as string[],
      replicas: 1,
    }));
}

/**
 * Here a Service's name leads straight to its pod's container (a network alias): there is no kube-proxy
 * to map a Service port to another target port. So a pod that calls a Service's port (the `helm test`
 * pods do) only works when the two are equal; chart-run/values.yaml sets them so.
 */
function checkServicePorts(services: Manifest[], deployments: Workload[]): void {
  for (const s of services) {
    const pod = deployments.find((d) => d.aliases.includes(s.metadata.name));
    for (const p of s.spec?.ports ?? []) {
      const target = targetPort(p.targetPort ?? p.port, pod);
      if (target !== p.port) {
        throw new Error(
          `Service ${s.metadata.name} port ${p.port} → ${target}: chart:run needs equal ports (set service.port to the container port)`,
        );
      }
    }
  }
}

/** A Service's targetPort, resolved to the number when it names a container port. */
function targetPort(target: number | string, pod: Workload | undefined): number {
  if (typeof target === 'number') return target;
  const port = pod?.pod.containers.flatMap((c) => c.ports ?? []).find((p) => p.name === target);
  if (!port) throw new Error(`no container port named ${target}`);
  return port.containerPort;
}

/** A named or numbered container port, as a number. */
export function containerPort(container: ContainerSpec, port: number | string): number {
  if (typeof port === 'number') return port;
  const found = container.ports?.find((p) => p.name === port);
  if (!found) throw new Error(`container ${container.name} has no port named ${port}`);
  return found.containerPort;
}

/** The container's environment as Kubernetes would set it: envFrom first, then env (which wins). */
export function resolveEnv(
  container: ContainerSpec,
  configMaps: Map<string, Record<string, string>>,
  secrets: Map<string, Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`container ${container.name}: ${what} is missing`);
    return value;
  };
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, need(configMaps.get(from.configMapRef.name), `ConfigMap ${from.configMapRef.name}`));
    if (from.secretRef) Object.assign(env, need(secrets.get(from.secretRef.name), `Secret ${from.secretRef.name}`));
  }
  for (const e of container.env ?? []) {
    const s = e.valueFrom?.secretKeyRef;
    const c = e.valueFrom?.configMapKeyRef;
    if (s) env[e.name] = need(secrets.get(s.name)?.[s.key], `Secret ${s.name} key ${s.key}`);
    else if (c) env[e.name] = need(configMaps.get(c.name)?.[c.key], `ConfigMap ${c.name} key ${c.key}`);
    else env[e.name] = e.value ?? '';
  }
  return env;
}

/** Kubernetes memory quantities (512Mi, 1Gi) as podman's --memory value. */
export function memoryLimit(quantity: string | undefined): string | undefined {
  const match = quantity?.match(/^(\d+)(Ki|Mi|Gi)?$/);
  if (!match) return undefined;
  const unit = { Ki: 'k', Mi: 'm', Gi: 'g' }[match[2] as 'Ki' | 'Mi' | 'Gi'] ?? 'b';
  return `${match[1]}${unit}`;
}
