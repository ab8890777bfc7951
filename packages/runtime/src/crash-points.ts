/** Crash points armed for this process: HC_CRASH_POINTS, comma-separated (read once at start). */
const armedCrashPoints = new Set(
  (process.env['HC_CRASH_POINTS'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean),
);

/**
 * Fault injection for crash tests: when HC_CRASH_POINTS names this point, the process kills itself
 * with SIGKILL right here — no cleanup, no flush, no rollback but PostgreSQL's own, like a power cut.
 * Tests use it to stop a process at an exact line (e.g. between recording a notice and publishing its
 * verdict). Nothing sets HC_CRASH_POINTS outside tests (config, the start command and the Helm chart
 * never do); unarmed, a crash point is one Set lookup.
 */
export function crashPoint(name: string): void {
  if (armedCrashPoints.has(name)) process.kill(process.pid, 'SIGKILL');
}
