import type { Writable } from 'node:stream';

/** A pino destination that keeps every line, parsed, for assertions on structured logs. */
export function captureLogs(): { lines: Record<string, unknown>[]; destination: Pick<Writable, 'write'> } {
  const lines: Record<string, unknown>[] = [];
  return { lines, destination: { write: (line: string) => (lines.push(JSON.parse(line) as Record<string, unknown>), true) } };
}
