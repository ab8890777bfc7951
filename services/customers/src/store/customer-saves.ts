/**
 * Several customers' saves in ONE statement (a group's new buyers, docs/adr/0066): what
 * statements.ts `saveCustomer` writes for one customer, for each of them: the details and counters,
 * and only the spent sums and store accounts that differ from the row as last written. The child
 * clauses touch disjoint rows (a currency or store is either written or deleted), as in saveCustomer.
 * Unnamed: planned with the group's rows in view; `= ANY` of the ids keeps the customers' update on
 * the primary key (a JSON record set alone is estimated at 100 rows).
 */
import type { QueryConfig } from 'pg';
import type { Customer } from '../domain/customer.ts';
import type { CustomerRowChanges } from '../domain/customer-changes.ts';

export interface CustomerSave {
  readonly customer: Customer;
  readonly changes: CustomerRowChanges;
  /** When the change happened: a new store account's updated_at. */
  readonly at: Date;
}

const SAVE_CUSTOMERS_SQL = `WITH
  r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id text, name text, phone text, shipping_address jsonb,
          billing_address jsonb, orders_count int, paid_orders_count int, last_order_at timestamptz)),
  c AS (UPDATE customers c SET name = r.name, phone = r.phone, shipping_address = r.shipping_address,
          billing_address = r.billing_address, orders_count = r.orders_count, paid_orders_count = r.paid_orders_count,
          last_order_at = r.last_order_at
        FROM r WHERE c.id = ANY($2::text[]) AND c.id = r.id),
  spent_gone AS (DELETE FROM customer_spent s USING unnest($3::text[], $4::text[]) AS g(customer_id, currency)
          WHERE s.customer_id = g.customer_id AND s.currency = g.currency),
  spent_set AS (INSERT INTO customer_spent (customer_id, currency, amount)
          SELECT * FROM unnest($5::text[], $6::text[], $7::numeric[])
          ON CONFLICT (customer_id, currency) DO UPDATE SET amount = EXCLUDED.amount),
  stores_gone AS (DELETE FROM customer_store_accounts a USING unnest($8::text[], $9::text[], $10::text[]) AS g(customer_id, platform, store_id)
          WHERE a.customer_id = g.customer_id AND a.platform = g.platform AND a.store_id = g.store_id),
  stores_set AS (INSERT INTO customer_store_accounts (customer_id, platform, store_id, store_name, store_customer_id, updated_at)
          SELECT * FROM unnest($11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::timestamptz[])
          ON CONFLICT (customer_id, platform, store_id)
          DO UPDATE SET store_name = EXCLUDED.store_name, store_customer_id = EXCLUDED.store_customer_id)
  SELECT 1`;

/** The customers' saves, by customer id (replicas write in one order). */
export function saveCustomers(saves: readonly CustomerSave[]): QueryConfig<unknown[]> {
  const sorted = [...saves].sort((a, b) => (a.customer.id < b.customer.id ? -1 : a.customer.id > b.customer.id ? 1 : 0));
  const spentGone = sorted.flatMap(({ customer, changes }) => changes.spentToDelete.map((currency) => [customer.id, currency] as const));
  const spentSet = sorted.flatMap(({ customer, changes }) =>
    changes.spentToWrite.map(([currency, amount]) => [customer.id, currency, amount] as const),
  );
  const storesGone = sorted.flatMap(({ customer, changes }) =>
    changes.storeAccountsToDelete.map((a) => [customer.id, a.platform, a.storeId] as const),
  );
  const storesSet = sorted.flatMap(({ customer, changes, at }) =>
    changes.storeAccountsToWrite.map((a) => [customer.id, a.platform, a.storeId, a.storeName, a.customerId, at] as const),
  );
  const column = <T extends readonly unknown[], I extends number>(rows: readonly T[], i: I): T[I][] => rows.map((row) => row[i]);
  return {
    text: SAVE_CUSTOMERS_SQL,
    values: [
      JSON.stringify(
        sorted.map(({ customer: c }) => ({
          id: c.id,
          name: c.name,
          phone: c.phone,
          shipping_address: c.shippingAddress,
          billing_address: c.billingAddress,
          orders_count: c.ordersCount,
          paid_orders_count: c.paidOrdersCount,
          last_order_at: c.lastOrderAt,
        })),
      ),
      sorted.map(({ customer }) => customer.id),
      column(spentGone, 0),
      column(spentGone, 1),
      column(spentSet, 0),
      column(spentSet, 1),
      column(spentSet, 2),
      column(storesGone, 0),
      column(storesGone, 1),
      column(storesGone, 2),
      column(storesSet, 0),
      column(storesSet, 1),
      column(storesSet, 2),
      column(storesSet, 3),
      column(storesSet, 4),
      column(storesSet, 5),
    ],
  };
}
