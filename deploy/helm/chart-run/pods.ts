/**
 * One container of a rendered pod spec (a migration Job's, a Deployment's, a `helm test` Pod's) as
 * `podman run` arguments, the way Kubernetes would run it: user, read-only root, dropped capabilities,
 * memory limit, emptyDir volumes as tmpfs, configMap volumes as read-only files, env and envFrom
 * resolved into an env file, container ports published on 127.0.0.1.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryLimit, resolveEnv } from './manifests.ts';
import type { ContainerSpec, Workload } from './manifests.ts';
import { freePort } from '@hc/test-kit';
import { LABEL } from './engine.ts';

export interface PodContext {
  network: string;
  /** A directory of this run's files (mode 0700): env files, configMap volumes. */
  state: string;
  configMaps: Map<string, Record<string, string>>;
  secrets: Map<string, Record<string, string>>;
}

/** The container's environment, resolved from the ConfigMaps and Secrets, in a file only the owner reads. */
function envFile(ctx: PodContext, w: Workload, c: ContainerSpec): string {
  const file = join(ctx.state, `${w.name}-${c.name}.env`);
  const env = resolveEnv(c, ctx.configMaps, ctx.secrets);
  const lines = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  writeFileSync(file, lines.join('\n') + '\n', { mode: 0o600 });
  return file;
}

/**
 * A configMap or secret volume: each key (or each of its items, at its path) a file, in a directory the
 * container's unprivileged user can read (a cluster makes Secrets readable by the pod's fsGroup).
 */
function volumeDir(ctx: PodContext, w: Workload, volume: NonNullable<Workload['pod']['volumes']>[number]): string {
  const source = volume.configMap ? ctx.configMaps.get(volume.configMap.name) : ctx.secrets.get(volume.secret!.secretName);
  const named = volume.configMap ? `ConfigMap ${volume.configMap.name}` : `Secret ${volume.secret!.secretName}`;
  if (!source) throw new Error(`${w.name}: volume ${volume.name} names ${named}, which chart:run does not have`);
  const items = volume.secret?.items ?? Object.keys(source).map((key) => ({ key, path: key }));
  const dir = join(ctx.state, `${w.name}-${volume.name}`);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const { key, path } of items) writeFileSync(join(dir, path), source[key] ?? '', { mode: 0o644 });
  return dir;
}

export async function runArgs(ctx: PodContext, w: Workload, c: ContainerSpec, name: string): Promise<string[]> {
  const args = ['--name', name, '--label', `${LABEL}=1`, '--label', `${LABEL}.workload=${w.name}`, '--network', ctx.network];
  for (const alias of w.aliases) args.push('--network-alias', alias);
  args.push('--env-file', envFile(ctx, w, c));
  const user = w.pod.securityContext;
  if (user?.runAsUser !== undefined) args.push('--user', `${user.runAsUser}:${user.runAsGroup ?? user.runAsUser}`);
  if (c.securityContext?.readOnlyRootFilesystem) args.push('--read-only');
  if (c.securityContext?.allowPrivilegeEscalation === false) args.push('--security-opt', 'no-new-privileges');
  for (const cap of c.securityContext?.capabilities?.drop ?? []) args.push('--cap-drop', cap);
  const memory = memoryLimit(c.resources?.limits?.memory);
  if (memory) args.push('--memory', memory);
  for (const mount of c.volumeMounts ?? []) {
    const volume = w.pod.volumes?.find((v) => v.name === mount.name);
    if (volume?.emptyDir) args.push('--tmpfs', `${mount.mountPath}:rw,mode=1777`);
    else if (volume?.configMap || volume?.secret) args.push('-v', `${volumeDir(ctx, w, volume)}:${mount.mountPath}:ro`);
    else throw new Error(`${w.name}: only emptyDir, configMap and secret volumes are supported (${mount.name})`);
  }
  // A Deployment's pod restarts when its container exits with an error, as Kubernetes's restartPolicy
  // Always would: a service that crashed at start (a JetStream request timing out while a new
  // three-node cluster elects its stream leaders) comes back instead of staying down. Bounded: podman
  // restarts without Kubernetes's back-off, so a container that can never start stops after 10 tries.
  if (w.kind === 'Deployment') args.push('--restart', 'on-failure:10');
  // A host port of our choosing, below the kernel's ephemeral range (docs/adr/0110): never one a
  // listen(0) elsewhere on the machine can be given while the engine's forwarding rule still points at it.
  for (const port of c.ports ?? []) args.push('-p', `127.0.0.1:${await freePort()}:${port.containerPort}`);
  if (c.command) args.push('--entrypoint', JSON.stringify(c.command));
  args.push(c.image, ...(c.args ?? []));
  return args;
}
