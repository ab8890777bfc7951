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

/**
 * node-postgres's own errors for a connection that broke or never came (it gives them no code): the
 * server went away mid-query or mid-connect (a crash, a failover, HAProxy cutting the sessions to a
 * former primary), or no connection could be had in time.
 */
const LOST_CONNECTION = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];
/** Socket errors of a server that is not there (yet, or any more). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
/**
 * SQLSTATEs of a server that cannot serve now: class 08 connection exception; 57P01–57P03 shut down
 * by an administrator, crashed, starting up or in recovery; 25006 read-only transaction (a standby
 * reached before the router noticed the change). Prisma's: P1001 unreachable, P1002 timed out, P1017
 * connection closed, P2024 no pool connection in time (and P2028 when a transaction could not start in time).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '25006']);
const PRISMA_UNAVAILABLE = new Set(['P1001', 'P1002', 'P1017', 'P2024']);

/**
 * Prisma's P2028 is any "Transaction API error"; this one says no connection came within the
 * transaction's `maxWait` (the pool's connections were being re-made through a failover: seen from
 * settlement's LockSettlement in the whole-topology fault profile, answered 500 before). The others
 * (a transaction used after it expired, say) stay errors of ours.
 */
const TRANSACTION_NOT_STARTED = /^Transaction API error: Unable to start a transaction in the given time/;

function lostConnection(error: unknown, depth: number): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const e = error as { message?: unknown; code?: unknown; cause?: unknown };
  if (typeof e.message === 'string' && LOST_CONNECTION.includes(e.message)) return true;
  if (e.code === 'P2028' && typeof e.message === 'string' && TRANSACTION_NOT_STARTED.test(e.message)) return true;
  if (typeof e.code === 'string' && (SOCKET_CODES.has(e.code) || PRISMA_UNAVAILABLE.has(e.code))) return true;
  return e.cause !== undefined && e.cause !== error && lostConnection(e.cause, depth + 1);
}

/**
 * A database that is briefly away — restarting, failing over to its standby (docs/adr/0091), or not
 * reachable — as 503 service_unavailable, which clients retry (an Idempotency-Key makes a create's
 * retry safe even when its COMMIT went through unanswered), instead of 500 internal_error.
 */
export function databaseUnavailableError(error: unknown): ApiError | undefined {
  const state = sqlStateOf(error);
  const unavailable = lostConnection(error, 0) || (state !== undefined && (state.startsWith('08') || UNAVAILABLE_STATES.has(state)));
  return unavailable ? new ApiError('service_unavailable') : undefined;
}
