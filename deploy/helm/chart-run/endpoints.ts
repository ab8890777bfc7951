/**
 * The endpoints controller's part in chart:run: which replicas the Ingress sends a Service's requests
 * to. A cluster lists a pod among its Service's endpoints once its readiness probe passes and takes it
 * out as soon as it starts terminating (before preStop runs); the Ingress follows the list. Podman's
 * DNS knows a container from its start to its end, ready or not, so chart:run keeps the list itself:
 * a JSON file (Service name → addresses) in a folder the Ingress container mounts read-only and reads
 * again whenever it changed (ingress.ts). A Service missing from the file is resolved by DNS.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workload } from './manifests.ts';
import { run } from './engine.ts';

export const ENDPOINTS_MOUNT = '/endpoints';
export const ENDPOINTS_FILE = 'endpoints.json';

/** The container's address on the run's network. */
export function addressOf(client: string, network: string, container: string): string {
  const networks = JSON.parse(run(client, ['inspect', '-f', '{{json .NetworkSettings.Networks}}', container])) as Record<
    string,
    { IPAddress?: string }
  >;
  const address = networks[network]?.IPAddress;
  if (!address) throw new Error(`${container} has no address on ${network}`);
  return address;
}

export class Endpoints {
  readonly dir: string;
  private readonly ready = new Map<string, Set<string>>();
  /** The Services the Ingress routes to: only their lists are kept. */
  private readonly services: string[];

  /** `ready`: the replicas ready now; the file is written once with all of them (never a partial list). */
  constructor(state: string, services: string[], ready: Array<{ deployment: Workload; address: string }>) {
    this.services = services;
    this.dir = join(state, 'endpoints');
    mkdirSync(this.dir, { recursive: true, mode: 0o755 });
    for (const { deployment, address } of ready) this.listed(deployment, address);
    this.write();
  }

  /** The Services the Ingress routes to, from its rendered paths (host:port targets). */
  static servicesOf(ingress: Array<{ target: string }>): string[] {
    return [...new Set(ingress.map((route) => route.target.split(':')[0]!))];
  }

  /** The replica passed its readiness probe: every routed Service that selects it gets its address. */
  add(deployment: Workload, address: string): void {
    this.listed(deployment, address);
    this.write();
  }

  private listed(deployment: Workload, address: string): void {
    for (const service of this.servicesOf(deployment)) this.ready.set(service, (this.ready.get(service) ?? new Set()).add(address));
  }

  /** The replica is terminating: out of every list before its preStop hook runs. */
  remove(deployment: Workload, address: string): void {
    for (const service of this.servicesOf(deployment)) this.ready.get(service)?.delete(address);
    this.write();
  }

  private servicesOf(deployment: Workload): string[] {
    return this.services.filter((s) => deployment.aliases.includes(s));
  }

  /** Written whole and renamed into place, so the Ingress never reads half a file. */
  private write(): void {
    const lists = Object.fromEntries([...this.ready].map(([service, addresses]) => [service, [...addresses].sort()]));
    const temporary = join(this.dir, `.${ENDPOINTS_FILE}.tmp`);
    writeFileSync(temporary, JSON.stringify(lists), { mode: 0o644 });
    renameSync(temporary, join(this.dir, ENDPOINTS_FILE));
  }
}
