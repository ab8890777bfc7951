/** Page sizes the spec allows. The gateway validates `limit`; a service still never trusts it blindly. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** 1…100: a missing (0) or non-integer limit gets the default size, an out-of-range one the nearest valid size. */
export function clampLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit === 0) return DEFAULT_PAGE_SIZE;
  return Math.min(Math.max(limit, 1), MAX_PAGE_SIZE);
}
