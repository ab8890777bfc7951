/**
 * The consumer's writes as prepared statements (docs/adr/0030, docs/performance.md): one round trip
 * each, no query planning in Node. Every statement has a name, so each pooled connection prepares it
 * once. Amounts travel as exact decimal text (never a float); addresses as jsonb text.
 */
import type { QueryConfig } from 'pg';
import { MARK_MANY_PROCESSED_SQL, MARK_PROCESSED_SQL } from '@hc/events';
import type { Customer, Order } from '../domain/customer.ts';
import type { CustomerRowChanges } from '../domain/customer-changes.ts';
import { CUSTOMER_SELECT, LOCKED_ORDER_SELECT } from './rows.ts';

type Query = QueryConfig<unknown[]>;

const jsonOrNull = (value: object | null): string | null => (value === null ? null : JSON.stringify(value));

/**
 * Every column of an order except its identity and scope, by the value it takes from an Order
 * (addresses as objects: a positional parameter sends them as jsonb text, a record set as JSON).
 */
const ORDER_COLUMNS: readonly [column: string, value: (order: Order) => unknown, cast?: string][] = [
  ['customer_id', (o) => o.customerId],
  ['email', (o) => o.email],
  ['name', (o) => o.name],
  ['phone', (o) => o.phone],
  ['shipping_address', (o) => o.shippingAddress, 'jsonb'],
  ['billing_address', (o) => o.billingAddress, 'jsonb'],
  ['store_platform', (o) => o.storeAccount?.platform ?? null],
  ['store_id', (o) => o.storeAccount?.storeId ?? null],
  ['store_name', (o) => o.storeAccount?.storeName ?? null],
  ['store_customer_id', (o) => o.storeAccount?.customerId ?? null],
  ['amount', (o) => o.amount, 'numeric'],
  ['currency', (o) => o.currency],
  ['status', (o) => o.status],
  ['status_at', (o) => o.statusAt],
  ['created_at', (o) => o.createdAt],
  ['paid_at', (o) => o.paidAt],
  ['email_revision', (o) => o.emailRevision],
  ['paid', (o) => o.paid],
  ['paid_amount', (o) => o.paidAmount, 'numeric'],
];

const param = (n: number, cast?: string): string => (cast ? `$${n}::${cast}` : `$${n}`);
const orderValues = (order: Order): unknown[] =>
  ORDER_COLUMNS.map(([, value, cast]) => (cast === 'jsonb' ? jsonOrNull(value(order) as object | null) : value(order)));

const ORDER_RECORD_COLUMNS = ['id', 'account_id', 'livemode', ...ORDER_COLUMNS.map(([c]) => c)].join(', ');

/** An order as one element of a JSON record set (jsonb_populate_recordset): keys are the columns. */
function orderRecord(order: Order): Record<string, unknown> {
  const record: Record<string, unknown> = { id: order.id, account_id: order.accountId, livemode: order.livemode };
  for (const [column, value] of ORDER_COLUMNS) record[column] = value(order);
  return record;
}

const INSERT_ORDER_SQL = `INSERT INTO orders (${ORDER_RECORD_COLUMNS})
  VALUES ($1, $2, $3, ${ORDER_COLUMNS.map(([, , cast], i) => param(i + 4, cast)).join(', ')})
  ON CONFLICT DO NOTHING`;

// A group's orders as one JSON parameter: one statement and one round trip for any number of rows.
const INSERT_ORDERS_SQL = `INSERT INTO orders (${ORDER_RECORD_COLUMNS})
  SELECT ${ORDER_RECORD_COLUMNS} FROM jsonb_populate_recordset(NULL::orders, $1::jsonb)
  ON CONFLICT DO NOTHING RETURNING id`;

const UPDATE_ORDERS_SQL = `UPDATE orders o SET ${ORDER_COLUMNS.map(([c]) => `${c} = r.${c}`).join(', ')}
  FROM jsonb_populate_recordset(NULL::orders, $1::jsonb) r WHERE o.id = ANY($2::text[]) AND o.id = r.id`;

/** @hc/events' record of an applied message: one row the first time, none on a redelivery. */
export const markProcessed = (consumer: string, msgId: string): Query => ({
  name: 'customers_mark_processed',
  text: MARK_PROCESSED_SQL,
  values: [consumer, msgId],
});

export const markManyProcessed = (consumer: string, msgIds: readonly string[]): Query => ({
  name: 'customers_mark_many_processed',
  text: MARK_MANY_PROCESSED_SQL,
  values: [consumer, msgIds],
});

export const insertOrder = (order: Order): Query => ({
  name: 'customers_insert_order',
  text: INSERT_ORDER_SQL,
  values: [order.id, order.accountId, order.livemode, ...orderValues(order)],
});

/** New orders in one statement; resolves (RETURNING) the ids written, without those that existed already. */
export const insertOrders = (orders: readonly Order[]): Query => ({
  name: 'customers_insert_orders',
  text: INSERT_ORDERS_SQL,
  values: [JSON.stringify(orders.map(orderRecord))],
});

/**
 * Every column but identity and scope of existing orders, in one statement. Unnamed, so it is planned
 * with its ids in view each time (`= ANY` of them: the record set alone is estimated at 100 rows): a
 * scan of every order otherwise (docs/adr/0066).
 */
export const updateOrders = (orders: readonly Order[]): Query => ({
  text: UPDATE_ORDERS_SQL,
  values: [JSON.stringify(orders.map(orderRecord)), orders.map((order) => order.id)],
});

export const lockOrder = (id: string, accountId: string, livemode: boolean): Query => ({
  name: 'customers_lock_order',
  text: `${LOCKED_ORDER_SELECT} WHERE id = $1 AND account_id = $2 AND livemode = $3 FOR UPDATE`,
  values: [id, accountId, livemode],
});

export const lockCustomerById = (id: string): Query => ({
  name: 'customers_lock_customer',
  text: `${CUSTOMER_SELECT} WHERE c.id = $1 FOR UPDATE OF c`,
  values: [id],
});

export const lockCustomerInScope = (id: string, accountId: string, livemode: boolean): Query => ({
  name: 'customers_lock_customer_in_scope',
  text: `${CUSTOMER_SELECT} WHERE c.id = $1 AND c.account_id = $2 AND c.livemode = $3 FOR UPDATE OF c`,
  values: [id, accountId, livemode],
});

export const insertCustomerIfNew = (id: string, accountId: string, livemode: boolean, email: string, createdAt: Date): Query => ({
  name: 'customers_insert_customer',
  text: `INSERT INTO customers (id, account_id, livemode, email, created_at) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (account_id, livemode, email) WHERE NOT erased DO NOTHING`,
  values: [id, accountId, livemode, email, createdAt],
});

/** insertCustomerIfNew for a group's customers, sorted by the caller (replicas insert in one order). */
export const insertCustomersIfNew = (
  customers: readonly { id: string; accountId: string; livemode: boolean; email: string; createdAt: Date }[],
): Query => ({
  name: 'customers_insert_customers',
  text: `INSERT INTO customers (id, account_id, livemode, email, created_at)
    SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::timestamptz[])
    ON CONFLICT (account_id, livemode, email) WHERE NOT erased DO NOTHING`,
  values: [
    customers.map((c) => c.id),
    customers.map((c) => c.accountId),
    customers.map((c) => c.livemode),
    customers.map((c) => c.email),
    customers.map((c) => c.createdAt),
  ],
});

/**
 * lockCustomerByEmail for a group's customers, locked in id order (replicas lock in one order).
 * Unnamed: planned with the group's rows in view (docs/adr/0066).
 */
export const lockCustomersByEmail = (keys: readonly { accountId: string; livemode: boolean; email: string }[]): Query => ({
  text: `${CUSTOMER_SELECT}
    JOIN unnest($1::text[], $2::boolean[], $3::text[]) AS k(account_id, livemode, email)
      ON c.account_id = k.account_id AND c.livemode = k.livemode AND c.email = k.email
    WHERE NOT c.erased ORDER BY c.id FOR UPDATE OF c`,
  values: [keys.map((k) => k.accountId), keys.map((k) => k.livemode), keys.map((k) => k.email)],
});

export const lockCustomerByEmail = (accountId: string, livemode: boolean, email: string): Query => ({
  name: 'customers_lock_customer_by_email',
  text: `${CUSTOMER_SELECT} WHERE c.account_id = $1 AND c.livemode = $2 AND c.email = $3 AND NOT c.erased FOR UPDATE OF c`,
  values: [accountId, livemode, email],
});

/**
 * A customer's details and counters, and the child rows that changed, in ONE statement: the data-
 * modifying WITH clauses touch disjoint rows (a currency or store is either written or deleted), and
 * all run to completion. Empty arrays make their clause a no-op, so one prepared shape serves all.
 * A store account's updated_at is its first time; a later write changes its name and customer id.
 */
const SAVE_CUSTOMER_SQL = `WITH
  c AS (UPDATE customers SET name = $2, phone = $3, shipping_address = $4::jsonb, billing_address = $5::jsonb,
          orders_count = $6, paid_orders_count = $7, last_order_at = $8 WHERE id = $1),
  spent_gone AS (DELETE FROM customer_spent WHERE customer_id = $1 AND currency = ANY($9::text[])),
  spent_set AS (INSERT INTO customer_spent (customer_id, currency, amount)
          SELECT $1, t.currency, t.amount FROM unnest($10::text[], $11::numeric[]) AS t(currency, amount)
          ON CONFLICT (customer_id, currency) DO UPDATE SET amount = EXCLUDED.amount),
  stores_gone AS (DELETE FROM customer_store_accounts WHERE customer_id = $1
          AND (platform, store_id) IN (SELECT * FROM unnest($12::text[], $13::text[]))),
  stores_set AS (INSERT INTO customer_store_accounts (customer_id, platform, store_id, store_name, store_customer_id, updated_at)
          SELECT $1, t.platform, t.store_id, t.store_name, t.store_customer_id, $18
            FROM unnest($14::text[], $15::text[], $16::text[], $17::text[]) AS t(platform, store_id, store_name, store_customer_id)
          ON CONFLICT (customer_id, platform, store_id)
          DO UPDATE SET store_name = EXCLUDED.store_name, store_customer_id = EXCLUDED.store_customer_id)
  SELECT 1`;

export const saveCustomer = (customer: Customer, changes: CustomerRowChanges, at: Date): Query => ({
  name: 'customers_save_customer',
  text: SAVE_CUSTOMER_SQL,
  values: [
    customer.id,
    customer.name,
    customer.phone,
    jsonOrNull(customer.shippingAddress),
    jsonOrNull(customer.billingAddress),
    customer.ordersCount,
    customer.paidOrdersCount,
    customer.lastOrderAt,
    changes.spentToDelete,
    changes.spentToWrite.map(([currency]) => currency),
    changes.spentToWrite.map(([, amount]) => amount),
    changes.storeAccountsToDelete.map((a) => a.platform),
    changes.storeAccountsToDelete.map((a) => a.storeId),
    changes.storeAccountsToWrite.map((a) => a.platform),
    changes.storeAccountsToWrite.map((a) => a.storeId),
    changes.storeAccountsToWrite.map((a) => a.storeName),
    changes.storeAccountsToWrite.map((a) => a.customerId),
    at,
  ],
});

export const ordersOfCustomer = (customerId: string, exceptOrderId: string): Query => ({
  name: 'customers_orders_of_customer',
  text: `${LOCKED_ORDER_SELECT} WHERE customer_id = $1 AND id <> $2 ORDER BY created_at ASC, id ASC`,
  values: [customerId, exceptOrderId],
});

/**
 * Rule 7: the customer's contact details, note and store customer ids, and its orders' personal
 * details, become null in one statement; returns its orders (oldest first) from before the statement,
 * which are the same rows (only personal columns change).
 */
export const eraseCustomerData = (customerId: string, at: Date): Query => ({
  name: 'customers_erase_customer',
  text: `WITH
    c AS (UPDATE customers SET email = NULL, name = NULL, phone = NULL, shipping_address = NULL, billing_address = NULL,
            note = NULL, erased = true, erased_at = $2 WHERE id = $1),
    s AS (UPDATE customer_store_accounts SET store_customer_id = NULL WHERE customer_id = $1),
    o AS (UPDATE orders SET email = NULL, name = NULL, phone = NULL, shipping_address = NULL, billing_address = NULL,
            store_customer_id = NULL WHERE customer_id = $1)
    SELECT id, email_revision AS "emailRevision" FROM orders WHERE customer_id = $1 ORDER BY created_at ASC, id ASC`,
  values: [customerId, at],
});

/** The merchant's private note, in the caller's scope (no row when the customer is not the caller's). */
export const setNote = (scope: { accountId: string; livemode: boolean }, customerId: string, note: string | null): Query => ({
  name: 'customers_set_note',
  text: 'UPDATE customers SET note = $4 WHERE id = $1 AND account_id = $2 AND livemode = $3',
  values: [customerId, scope.accountId, scope.livemode, note],
});

/** A customer of the scope with its children: a read by id, a list's cursor. */
export const findCustomer = (scope: { accountId: string; livemode: boolean }, id: string): Query => ({
  name: 'customers_find_customer',
  text: `${CUSTOMER_SELECT} WHERE c.id = $1 AND c.account_id = $2 AND c.livemode = $3`,
  values: [id, scope.accountId, scope.livemode],
});

/**
 * A page of the scope's customers with their children, newest first (ties by id), on the index
 * (account, mode, created_at DESC, id DESC): one statement per shape (email filter, cursor), so each
 * keeps its own plan, as checkout's lists do.
 */
export function listCustomers(
  scope: { accountId: string; livemode: boolean },
  query: { limit: number; after?: { createdAt: Date; id: string } | undefined; email?: string | undefined },
): Query {
  const values: unknown[] = [scope.accountId, scope.livemode];
  const where = ['c.account_id = $1', 'c.livemode = $2'];
  if (query.email !== undefined) {
    values.push(query.email);
    where.push(`c.email = $${values.length} AND NOT c.erased`);
  }
  if (query.after) {
    values.push(query.after.createdAt, query.after.id);
    const [at, id] = [`$${values.length - 1}`, `$${values.length}`];
    where.push(`(c.created_at < ${at} OR (c.created_at = ${at} AND c.id < ${id}))`);
  }
  values.push(query.limit);
  return {
    name: `customers_list${query.email === undefined ? '' : '_email'}${query.after ? '_after' : ''}`,
    text: `${CUSTOMER_SELECT} WHERE ${where.join(' AND ')} ORDER BY c.created_at DESC, c.id DESC LIMIT $${values.length}`,
    values,
  };
}
