// The payments' listings as prepared statements (docs/adr/0030): the API's and the dashboard's pages,
// newest first, and the settlement statement's walk of paid payments. Split from payment-statements.ts,
// whose column list they select.
import type { QueryConfig } from 'pg';
import type { Payment, PaymentFilters, Scope } from '../domain/payment.ts';
import { SELECT_LIST } from './payment-statements.ts';

/**
 * One named statement per shape (which filters, with or without a cursor), so each keeps a plan that
 * walks its index ((account, mode[, source], created_at DESC, id DESC)) instead of a generic plan with
 * `$n IS NULL OR …` conditions. The dashboard's status, reference and email filters narrow that walk.
 */
/** The filterable columns, in the order a statement's name lists them. */
const FILTER_COLUMNS = [
  ['source', 'source'],
  ['status', 'status'],
  ['reference', 'reference'],
  ['customerEmail', 'customer_email'],
] as const satisfies readonly (readonly [keyof PaymentFilters, string])[];

/** Every key a list statement's shape may hold, in the order the shape lists them. */
const SHAPE_KEYS: readonly string[] = [...FILTER_COLUMNS.map(([key]) => key), 'createdGte', 'createdLt'];

/**
 * The statement's name, one per shape: the filters present as a bit mask. PostgreSQL keeps only 63
 * characters of a statement's name, so names spelling out every filter (70 and more) cut off the
 * same and collided on one connection ("prepared statement already exists").
 */
export function listStatementName(shape: readonly string[], withCursor: boolean): string {
  const mask = shape.reduce((bits, key) => bits | (1 << SHAPE_KEYS.indexOf(key)), 0);
  return `checkout-session-list-${mask.toString(16)}${withCursor ? '-after' : ''}`;
}

/** A list's scope, filters and period as conditions on its index walk, with their values and shape. */
function listConditions(scope: Scope, filters: PaymentFilters): { values: unknown[]; where: string[]; shape: string[] } {
  const values: unknown[] = [scope.accountId, scope.livemode];
  const where = ['account_id = $1', 'livemode = $2'];
  const shape: string[] = [];
  for (const [key, column] of FILTER_COLUMNS) {
    const value = filters[key];
    if (value === undefined) continue;
    values.push(value);
    where.push(`${column} = $${values.length}`);
    shape.push(key);
  }
  // The exports' period (docs/adr/0057): a range on the same index walk.
  for (const [key, op] of [
    ['createdGte', '>='],
    ['createdLt', '<'],
  ] as const) {
    const bound = filters[key];
    if (bound === undefined) continue;
    values.push(bound);
    where.push(`created_at ${op} $${values.length}`);
    shape.push(key);
  }
  return { values, where, shape };
}

const NEWEST_FIRST = 'ORDER BY created_at DESC, id DESC';

export function listPayments(scope: Scope, limit: number, after?: Payment, filters: PaymentFilters = {}): QueryConfig {
  const { values, where, shape } = listConditions(scope, filters);
  if (after) {
    values.push(after.createdAt, after.id);
    where.push(`(created_at < $${values.length - 1} OR (created_at = $${values.length - 1} AND id < $${values.length}))`);
  }
  values.push(limit);
  return {
    name: listStatementName(shape, after !== undefined),
    text: `SELECT ${SELECT_LIST} FROM checkout_sessions WHERE ${where.join(' AND ')} ${NEWEST_FIRST} LIMIT $${values.length}`,
    values,
  };
}

/**
 * The page after the payment `afterId` (the API's `starting_after`) in ONE statement with the
 * cursor's own read (docs/adr/0097): the cursor must be the caller's, in this mode (and of the
 * filter's source). No row: the cursor is not the caller's; one row of NULLs: the page is empty.
 */
export function listPaymentsAfterId(scope: Scope, limit: number, afterId: string, filters: PaymentFilters = {}): QueryConfig {
  const { values, where, shape } = listConditions(scope, filters);
  const cursorWhere = ['account_id = $1', 'livemode = $2'];
  if (filters.source !== undefined) cursorWhere.push(`source = $${values.indexOf(filters.source) + 1}`);
  values.push(afterId, limit);
  const [id, max] = [`$${values.length - 1}`, `$${values.length}`];
  return {
    name: `${listStatementName(shape, true)}-id`,
    text: `SELECT page.* FROM (SELECT created_at, id FROM checkout_sessions WHERE id = ${id} AND ${cursorWhere.join(' AND ')}) after_row
      LEFT JOIN LATERAL (SELECT ${SELECT_LIST} FROM checkout_sessions
        WHERE ${where.join(' AND ')} AND (created_at < after_row.created_at OR (created_at = after_row.created_at AND id < after_row.id))
        ${NEWEST_FIRST} LIMIT ${max}) page ON true`,
    values,
  };
}

/**
 * The settlement statement's walk (docs/adr/0057): the scope's paid payments whose paid_at falls in
 * the period, oldest paid first (ties by id), a page after the last one read, on the partial index
 * (account, mode, paid_at, id) of paid payments. A payment belongs to the day it was paid, however
 * long before it was created (a held payment accepted days later too).
 */
export function listPaidPayments(scope: Scope, limit: number, period: { from?: Date; until?: Date }, after?: Payment): QueryConfig {
  const values: unknown[] = [scope.accountId, scope.livemode, period.from ?? new Date(0), period.until ?? new Date('9999-12-31T00:00:00Z')];
  const where = [`account_id = $1`, `livemode = $2`, `status = 'paid'`, `paid_at >= $3`, `paid_at < $4`];
  if (after) {
    values.push(after.paidAt, after.id);
    where.push(`(paid_at > $5 OR (paid_at = $5 AND id > $6))`);
  }
  values.push(limit);
  return {
    name: `checkout-session-list-paid${after ? '-after' : ''}`,
    text: `SELECT ${SELECT_LIST} FROM checkout_sessions WHERE ${where.join(' AND ')} ORDER BY paid_at, id LIMIT $${values.length}`,
    values,
  };
}
