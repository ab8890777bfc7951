/**
 * Checkout's hot paths as prepared statements on the pg pool Prisma also uses (docs/adr/0030): the
 * create (a payment and its outbox row in ONE statement, hence one implicit transaction and one round
 * trip), the read by id and the listing. Everything else stays on Prisma.
 *
 * Rows come back under the Prisma model's field names (the column list below aliases each column), so
 * one mapping (payments.ts `toPayment`) serves both paths; pg returns numeric as exact
 * decimal text (never a float) and timestamptz as a Date.
 */
import type { QueryConfig } from 'pg';
import { outboxInsertSql, outboxRowsJson, OUTBOX_WAKE_CALL, type OutboxRow } from '@hc/events';
import type { Payment, Scope } from '../domain/payment.ts';
import type { PaymentPatch } from '../domain/payment-transitions.ts';

type FlatPayment = Omit<Payment, 'settlement'> & Payment['settlement'];

/** Every column of checkout_sessions, by the Payment field (settlement flattened) it holds. */
const COLUMNS = {
  id: 'id',
  accountId: 'account_id',
  livemode: 'livemode',
  status: 'status',
  amount: 'amount',
  currency: 'currency',
  description: 'description',
  reference: 'reference',
  customerEmail: 'customer_email',
  customerRevision: 'customer_revision',
  metadata: 'metadata',
  successUrl: 'success_url',
  cancelUrl: 'cancel_url',
  createdAt: 'created_at',
  expiresAt: 'expires_at',
  startedAt: 'started_at',
  country: 'country',
  provider: 'provider',
  paidAt: 'paid_at',
  holdReason: 'hold_reason',
  holdAcceptable: 'hold_acceptable',
  canceledAt: 'canceled_at',
  acceptedAt: 'accepted_at',
  source: 'source',
  customerName: 'customer_name',
  memo: 'memo',
  locale: 'locale',
  pageLocale: 'page_locale',
  checkoutId: 'checkout_id',
  planLabel: 'plan_label',
  merchantName: 'merchant_name',
  feeBps: 'fee_bps',
  depositAddress: 'deposit_address',
  payoutWallet: 'payout_wallet',
  usdValue: 'usd_value',
  coin: 'coin',
  valueCoin: 'value_coin',
  merchantReceived: 'merchant_received',
  txidIn: 'txid_in',
  txidOut: 'txid_out',
} as const satisfies Record<keyof FlatPayment, string>;

/**
 * Columns no code writes or reads any more, left NULL until a later migration drops them (dropping them
 * in the release that stops writing them would break the previous release's pods during a rollout):
 * the account's wallet and fee as they were at create, which a start must never use (docs/adr/0037).
 */
export const RETIRED_PAYMENT_COLUMNS: readonly string[] = ['account_payout_wallet', 'account_fee_bps'];

type Field = keyof typeof COLUMNS;

const FIELDS = Object.keys(COLUMNS) as Field[];
/** The columns the statements write and read (a test checks they and the retired ones are all of the table's). */
export const PAYMENT_COLUMN_NAMES: readonly string[] = FIELDS.map((field) => COLUMNS[field]);
/** The columns every statement that reads payments selects, under the Payment field names. */
export const SELECT_LIST = FIELDS.map((field) => `"${COLUMNS[field]}" AS "${field}"`).join(', ');
const INSERT_COLUMNS = FIELDS.map((field) => `"${COLUMNS[field]}"`).join(', ');
const INSERT_VALUES = FIELDS.map((_field, i) => `$${i + 1}`).join(', ');
const OUTBOX_PARAM = FIELDS.length + 1;

/**
 * The payment's row and its event's outbox row are written by one statement: data-modifying WITH
 * clauses always run to completion, and a statement outside BEGIN is its own transaction, so both rows
 * commit together or neither does (a refused payment value aborts the outbox insert with it). An id
 * already taken writes neither row and answers no row (ON CONFLICT (id) DO NOTHING, so the idempotent
 * create learns of its retry without a read first, docs/adr/0062). The outbox insert is @hc/events'
 * one (docs/adr/0084): it skips a duplicate event id, and its wake-up reaches the relay at commit and is
 * dropped on rollback.
 */
const INSERT_WITH_EVENT_SQL = `WITH s AS (INSERT INTO checkout_sessions (${INSERT_COLUMNS}) VALUES (${INSERT_VALUES})
      ON CONFLICT (id) DO NOTHING RETURNING id),
o AS (${outboxInsertSql(`$${OUTBOX_PARAM}`, { onlyWhere: 'e.key IN (SELECT id FROM s)' })})
SELECT s.id, ${OUTBOX_WAKE_CALL} FROM s`;

/** A payment as one flat record of its columns' fields (settlement's fields beside the others). */
function flatten(payment: Payment): FlatPayment {
  const { settlement, ...fields } = payment;
  return { ...fields, ...settlement };
}

export function insertWithEvent(payment: Payment, event: OutboxRow): QueryConfig {
  const flat = flatten(payment);
  const values: unknown[] = FIELDS.map((field) => {
    const value = flat[field];
    // json, not jsonb: the text as serialised here is what is stored (key order kept), as with Prisma.
    return field === 'metadata' && value !== null ? JSON.stringify(value) : value;
  });
  values.push(outboxRowsJson([{ ...event, key: payment.id }]));
  return { name: 'checkout-session-insert-with-event', text: INSERT_WITH_EVENT_SQL, values };
}

/**
 * Several creates in ONE statement (group commit, docs/adr/0036): the payments and their outbox rows
 * commit together or none does. Rows travel as one JSON array each, keyed by column name:
 * json_populate_recordset converts every value with the column's own type (numeric from its exact
 * text, timestamptz from ISO time), and a json column keeps its value's text as written here (key
 * order too), as the single insert does. A payment whose id is already taken is skipped with its
 * outbox row, and only the ids written come back (docs/adr/0062); the outbox rows keep arrival order.
 */
const INSERT_MANY_WITH_EVENTS_SQL = `WITH s AS (INSERT INTO checkout_sessions (${INSERT_COLUMNS})
      SELECT ${INSERT_COLUMNS} FROM json_populate_recordset(NULL::checkout_sessions, $1::json)
      ON CONFLICT (id) DO NOTHING RETURNING id),
o AS (${outboxInsertSql('$2', { onlyWhere: 'e.key IN (SELECT id FROM s)' })})
SELECT id, (SELECT ${OUTBOX_WAKE_CALL}) FROM s`;

/** Several creates; the same id twice must not be in one group (the store keeps the first). */
export function insertManyWithEvents(creates: readonly { readonly payment: Payment; readonly event: OutboxRow }[]): QueryConfig {
  const rows = creates.map(({ payment }) => {
    const flat = flatten(payment);
    return Object.fromEntries(FIELDS.map((field) => [COLUMNS[field], flat[field]]));
  });
  return {
    name: 'checkout-session-insert-many-with-events',
    text: INSERT_MANY_WITH_EVENTS_SQL,
    values: [JSON.stringify(rows), outboxRowsJson(creates.map(({ payment, event }) => ({ ...event, key: payment.id })))],
  };
}

/**
 * A change's UPDATE, run in its transaction under the row lock LOCKED_FIND_SQL took: the patched
 * columns only, their values carried as one JSON record that json_populate_record converts with each
 * column's own type (as the grouped create does), and the row as it is after. SQL, as the creates are:
 * checkout_sessions has one way in (docs/adr/0084). Null for an empty patch (nothing to write).
 */
export function updatePayment(id: string, patch: PaymentPatch): { text: string; values: unknown[] } | null {
  const { settlement, ...rest } = patch;
  const flat: Partial<FlatPayment> = { ...rest, ...settlement };
  const fields = FIELDS.filter((field) => flat[field] !== undefined);
  if (fields.length === 0) return null;
  const columns = fields.map((field) => `"${COLUMNS[field]}"`).join(', ');
  const record = Object.fromEntries(fields.map((field) => [COLUMNS[field], flat[field]]));
  return {
    text: `UPDATE checkout_sessions SET (${columns}) = (SELECT ${columns} FROM json_populate_record(NULL::checkout_sessions, $2::json))
            WHERE id = $1 RETURNING ${SELECT_LIST}`,
    values: [id, JSON.stringify(record)],
  };
}

/** The erasure's UPDATE: the buyer's email and name leave these payments (`$1`, ids). */
export const ERASE_BUYER_SQL = 'UPDATE checkout_sessions SET customer_email = NULL, customer_name = NULL WHERE id = ANY($1::text[])';

/**
 * Several reads by id in one statement (GroupedReads, docs/adr/0034), each still scoped: a row comes
 * back only for an (id, account, mode) that was asked for, as `WHERE id = … AND account_id = … AND livemode = …` would for one. The
 * `id = ANY` keeps the plan on the primary key whatever the table's statistics say.
 */
export function findPayments(requests: readonly { readonly scope: Scope; readonly id: string }[]): QueryConfig {
  const select = FIELDS.map((field) => `s."${COLUMNS[field]}" AS "${field}"`).join(', ');
  return {
    name: 'checkout-session-find-group',
    text: `SELECT ${select} FROM checkout_sessions s
             JOIN unnest($1::text[], $2::text[], $3::boolean[]) AS k(id, account_id, livemode)
               ON s.id = k.id AND s.account_id = k.account_id AND s.livemode = k.livemode
            WHERE s.id = ANY($1::text[])`,
    values: [requests.map((r) => r.id), requests.map((r) => r.scope.accountId), requests.map((r) => r.scope.livemode)],
  };
}

/**
 * Several payments by id alone (GroupedReads, docs/adr/0034): the hosted page's one read, which finds
 * the payment and with it the account and mode it then acts in (the row holds both), so a buyer's
 * action costs one read, not a scope lookup and then a scoped read.
 */
export function findPaymentsForBuyer(ids: readonly string[]): QueryConfig {
  return {
    name: 'checkout-session-find-by-id-group',
    text: `SELECT ${SELECT_LIST} FROM checkout_sessions WHERE id = ANY($1::text[])`,
    values: [ids],
  };
}

/**
 * The payment under a row lock, read by the same statement that takes the lock (a change's one read):
 * `$1` id, `$2` account, `$3` mode. Run inside the change's transaction (Prisma's $queryRawUnsafe).
 */
export const LOCKED_FIND_SQL = `SELECT ${SELECT_LIST} FROM checkout_sessions WHERE id = $1 AND account_id = $2 AND livemode = $3 FOR UPDATE`;

/**
 * The Overview's reads (docs/adr/0058), per UTC day: a paid payment on the day it was PAID (what came
 * in that day, on the paid_at index, whenever it was created), every other payment on the day it was
 * created, one past expiry counted as expired (as a read would show it, whether or not the sweeper got
 * to it); paid volume per day and currency; merchant_received per coin of the period's paid payments.
 * PostgreSQL sums the numeric columns exactly and hands back text.
 */
export function overviewStatements(
  scope: Scope,
  start: Date,
  end: Date,
  now: Date,
): { counts: QueryConfig; volumes: QueryConfig; received: QueryConfig } {
  const created = 'account_id = $1 AND livemode = $2 AND created_at >= $3 AND created_at < $4';
  const paid = `account_id = $1 AND livemode = $2 AND status = 'paid' AND paid_at >= $3 AND paid_at < $4`;
  const dayOf = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const values = [scope.accountId, scope.livemode, start, end];
  return {
    counts: {
      name: 'checkout-overview-counts',
      text: `SELECT day, status, count(*)::int AS count FROM (
          SELECT ${dayOf('created_at')} AS day,
                 CASE WHEN status IN ('open', 'pending') AND expires_at <= $5 THEN 'expired' ELSE status END AS status
            FROM checkout_sessions WHERE ${created} AND status <> 'paid'
          UNION ALL
          SELECT ${dayOf('paid_at')} AS day, 'paid' AS status FROM checkout_sessions WHERE ${paid}
        ) AS payments GROUP BY 1, 2`,
      values: [...values, now],
    },
    volumes: {
      name: 'checkout-overview-volumes',
      text: `SELECT ${dayOf('paid_at')} AS day, currency, sum(amount)::text AS amount FROM checkout_sessions WHERE ${paid} GROUP BY 1, 2`,
      values,
    },
    received: {
      name: 'checkout-overview-received',
      text: `SELECT coin AS currency, sum(merchant_received)::text AS amount FROM checkout_sessions
        WHERE ${paid} AND merchant_received IS NOT NULL AND coin IS NOT NULL GROUP BY 1`,
      values,
    },
  };
}

/** Held payments the merchant may accept, any age, newest first; with the total for "and N more". */
export function needsYouStatements(scope: Scope, limit: number): { list: QueryConfig; total: QueryConfig } {
  const where = `account_id = $1 AND livemode = $2 AND status = 'held' AND hold_acceptable`;
  return {
    list: {
      name: 'checkout-overview-needs-you',
      text: `SELECT ${SELECT_LIST} FROM checkout_sessions WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $3`,
      values: [scope.accountId, scope.livemode, limit],
    },
    total: {
      name: 'checkout-overview-needs-you-total',
      text: `SELECT count(*)::int AS count FROM checkout_sessions WHERE ${where}`,
      values: [scope.accountId, scope.livemode],
    },
  };
}
