/** Durations in configuration: a whole number and a unit, e.g. "500ms", "5s", "30m", "10h", "3d". */
export const DURATION_PATTERN = '^[0-9]+(ms|s|m|h|d)$';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function parseDuration(text: string): number {
  const match = /^([0-9]+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`not a duration: "${text}" (expected e.g. 500ms, 5s, 30m, 10h, 3d)`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
