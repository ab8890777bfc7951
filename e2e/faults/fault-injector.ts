/**
 * The faults the suite injects while the load runs, in turn and at seeded random moments: SIGKILL of
 * each service process of the supervised platform (its relay and consumers live inside them), two
 * processes at once, NATS killed (SIGKILL, restarted on the same store), PostgreSQL stopped like a
 * crash and started again. The platform's supervisor restarts killed processes (tools/platform/src/supervisor.ts);
 * NATS and PostgreSQL are the suite's own disposable servers (@hc/test-kit), restarted by the suite.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import type { DisposableNats, DisposablePostgres } from '@hc/test-kit';

/** Every process of the supervised platform (tools/platform/src/platform.ts): each is killed at least once a round. */
export const SERVICE_PROCESSES = ['gateway', 'checkout', 'settlement', 'customers', 'webhooks', 'pages', 'dashboard', 'emulator'] as const;
export type Fault = { kind: 'kill'; processes: string[] } | { kind: 'nats'; downMs: number } | { kind: 'postgres'; downMs: number };

export interface InjectedFault {
  readonly fault: Fault;
  readonly at: number;
  /** Milliseconds from the fault until the gateway was ready and a read answered again. */
  recoveryMs: number | null;
}

/** Every service alone, then two together, NATS and PostgreSQL; `rounds` times, shuffled by the seed. */
export function planFaults(rng: RandomGenerator, rounds: number): Fault[] {
  const faults: Fault[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const name of SERVICE_PROCESSES) faults.push({ kind: 'kill', processes: [name] });
    const first = SERVICE_PROCESSES[uniformInt(rng, 0, SERVICE_PROCESSES.length - 1)]!;
    const others = SERVICE_PROCESSES.filter((p) => p !== first);
    faults.push({ kind: 'kill', processes: [first, others[uniformInt(rng, 0, others.length - 1)]!] });
    faults.push({ kind: 'nats', downMs: uniformInt(rng, 500, 3000) });
    faults.push({ kind: 'postgres', downMs: uniformInt(rng, 200, 1500) });
  }
  for (let i = faults.length - 1; i > 0; i -= 1) {
    const j = uniformInt(rng, 0, i);
    [faults[i], faults[j]] = [faults[j]!, faults[i]!];
  }
  return faults;
}

export interface FaultTargets {
  /** The platform's stderr so far (the supervisor's "NAME started (pid N)" lines). */
  stderr(): string;
  /** Needed only for a `nats` fault. */
  readonly nats?: DisposableNats;
  /** Needed only for a `postgres` fault. */
  readonly postgres?: DisposablePostgres;
  /** Resolves once the platform answers again (gateway ready, a read served). */
  recovered(): Promise<void>;
}

function currentPid(stderr: string, name: string): number {
  const matches = [...stderr.matchAll(new RegExp(`${name} started \\(pid (\\d+)\\)`, 'g'))];
  const pid = Number(matches.at(-1)?.[1]);
  if (!pid) throw new Error(`no pid for ${name} in the platform's output`);
  return pid;
}

export async function inject(fault: Fault, targets: FaultTargets): Promise<InjectedFault> {
  const injected: InjectedFault = { fault, at: Date.now(), recoveryMs: null };
  switch (fault.kind) {
    case 'kill':
      for (const name of fault.processes) {
        try {
          process.kill(currentPid(targets.stderr(), name), 'SIGKILL');
        } catch {
          // Already down (restarting from an earlier fault): nothing to kill.
        }
      }
      break;
    case 'nats':
      if (!targets.nats) throw new Error('a NATS fault without a NATS to kill');
      await targets.nats.kill();
      await new Promise((resolve) => setTimeout(resolve, fault.downMs));
      await targets.nats.start();
      break;
    case 'postgres':
      if (!targets.postgres) throw new Error('a PostgreSQL fault without a PostgreSQL to crash');
      await targets.postgres.restart(fault.downMs);
      break;
  }
  await targets.recovered();
  injected.recoveryMs = Date.now() - injected.at;
  return injected;
}

export function describeFault(fault: Fault): string {
  if (fault.kind === 'kill') return `SIGKILL ${fault.processes.join(' + ')}`;
  return fault.kind === 'nats' ? `NATS killed, down ${fault.downMs} ms` : `PostgreSQL crashed, down ${fault.downMs} ms`;
}
