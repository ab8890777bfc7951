/**
 * Resident memory (VmRSS) of the platform's processes, issue 50 item 4: taken at idle (after start,
 * before any load) and at its peak under a load (sampled while it runs), printed one row per process
 * and a total. Shared by `pnpm bench`, `pnpm bench:pipeline` and `memory.ts`.
 */
import { readFileSync } from 'node:fs';
import { residentMb } from './measure.ts';

export type Processes = readonly { readonly pid: number; readonly name: string }[];

/** Each process's resident memory now, MB by pid. */
export function residentNow(processes: Processes): Map<number, number> {
  return new Map(processes.map((p) => [p.pid, residentMb(p.pid)]));
}

/**
 * Samples every process's resident memory every `everyMs` until `stop()`, which answers each one's
 * highest sample (and one taken then): what the load made each process hold at its peak.
 */
export function residentPeak(processes: Processes, everyMs = 500): { stop(): Map<number, number> } {
  const peak = residentNow(processes);
  const sample = (): void => {
    for (const [pid, mb] of residentNow(processes)) if (mb > (peak.get(pid) ?? 0)) peak.set(pid, mb);
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** One row per process, `idle / loaded` MB (or idle alone), and the total; `title` heads the table. */
export function residentTable(title: string, processes: Processes, idle: Map<number, number>, loaded?: Map<number, number>): string[] {
  const mb = (value: number | undefined): string => (value === undefined || Number.isNaN(value) ? '-' : value.toFixed(0)).padStart(6);
  const total = (figures: Map<number, number>): number =>
    processes.reduce((sum, p) => sum + (Number.isNaN(figures.get(p.pid)) ? 0 : (figures.get(p.pid) ?? 0)), 0);
  const row = (name: string, a: number | undefined, b: number | undefined): string =>
    `  ${name.padEnd(28)} ${mb(a)}${loaded ? ` / ${mb(b)}` : ''}`;
  return [
    title,
    ...processes.map((p) => row(p.name, idle.get(p.pid), loaded?.get(p.pid))),
    row('total', total(idle), loaded ? total(loaded) : undefined),
  ];
}

/**
 * The processes' proportional set size together, MB (Pss in /proc/PID/smaps_rollup): a page shared by n
 * of them counts 1/n in each, so the node binary's text (about 50 MB resident in every process) counts
 * once. What the platform costs the machine; the sum of RSS counts shared pages in every process.
 */
export function proportionalTotal(processes: Processes): number {
  let kb = 0;
  for (const { pid } of processes) {
    try {
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}
