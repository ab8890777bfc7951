/**
 * True when a database error is a unique-key violation (SQLSTATE 23505), whether it comes from pg
 * directly or wrapped by Prisma (P2002). Callers turn it into a 409 or a retry, never a 500.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; cause?: unknown };
  if (e.code === '23505' || e.code === 'P2002') return true;
  return e.cause !== undefined && e.cause !== error && isUniqueViolation(e.cause);
}
