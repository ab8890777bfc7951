import { ApiError } from '@hc/errors';

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

/**
 * Prisma's own codes for a value the database cannot take: P2000 too long for the column, P2006 not
 * valid for the field, P2007 data validation, P2020 out of range for the type.
 */
const PRISMA_BAD_VALUE = new Set(['P2000', 'P2006', 'P2007', 'P2020']);

/**
 * The SQLSTATE of a database error wherever it sits: `code` of a pg error, `originalCode` of a Prisma
 * driver-adapter error (under `meta.driverAdapterError.cause`), or the same on a `cause`.
 */
export function sqlStateOf(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  const e = error as { code?: unknown; originalCode?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  if (typeof e.originalCode === 'string') return e.originalCode;
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && !e.code.startsWith('P')) return e.code;
  return sqlStateOf(e.meta?.driverAdapterError, depth + 1) ?? (e.cause === error ? undefined : sqlStateOf(e.cause, depth + 1));
}

/**
 * A database refusal of the "bad value" class as the API error it stands for, or undefined. SQLSTATE
 * class 22 (data exception: 22021 invalid byte sequence, 22001 value too long, 22003 numeric out of
 * range, 22P02 invalid text representation, 22P05 untranslatable character, 22007/22008 bad dates…)
 * means a value that came in was not storable: the caller's request is at fault, so 400
 * invalid_request, never 500 (docs/adr/0012). The edge's validation should have refused it first;
 * this is the net under it.
 */
export function badValueError(error: unknown): ApiError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const badValue = (typeof code === 'string' && PRISMA_BAD_VALUE.has(code)) || sqlStateOf(error)?.startsWith('22') === true;
  if (!badValue) return undefined;
  return new ApiError('invalid_request', 'A value in the request cannot be stored (malformed text, too long or out of range).');
}
