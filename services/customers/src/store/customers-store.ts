import { inTransaction, sqlStateOf } from '@hc/db';
import type { Customer, Order, Scope } from '../domain/customer.ts';
import { CustomersTransaction } from './customers-transaction.ts';
import * as statements from './statements.ts';
import type { CustomersDatabase, CustomersPrisma } from './prisma.ts';
import { customerOfRow, toOrder, type CustomerSelectRow } from './rows.ts';

export { CustomersTransaction } from './customers-transaction.ts';

/** Only the scope's two keys: callers often pass a whole CallContext, whose other fields are no columns. */
const inScope = (scope: Scope) => ({ accountId: scope.accountId, livemode: scope.livemode });

// Deadlocks (two replicas locking the same two customers in opposite order while moving orders) and
// serialization failures are resolved by running the transaction again.
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 4;

// How long one statement of a transaction may run (a lock wait included) before it is given up.
const STATEMENT_TIMEOUT_MS = 15_000;

function isRetryableConflict(error: unknown): boolean {
  return RETRYABLE_SQLSTATES.has(sqlStateOf(error) ?? '');
}

export interface CustomerListQuery {
  limit: number;
  /** The previous page's last customer. */
  after?: Customer | undefined;
  /** Lowercased whole address; only non-erased customers match. */
  email?: string | undefined;
}

export interface OrderListQuery {
  limit: number;
  after?: Order | undefined;
  customerId?: string | undefined;
}

/**
 * The only code that knows the customers tables (with its transactions' statements, statements.ts).
 * Every public lookup requires the caller's scope.
 */
export class CustomersStore {
  private readonly database: CustomersDatabase;

  constructor(database: CustomersDatabase) {
    this.database = database;
  }

  /** The API's reads and the note; writes go through transaction() (statements.ts). */
  private get prisma(): CustomersPrisma {
    return this.database.prisma;
  }

  /**
   * Runs `work` in one transaction on a pooled connection (retried whole on a deadlock). `group`: the
   * transaction applies a group of messages (CustomersTransaction).
   */
  async transaction<T>(work: (tx: CustomersTransaction) => Promise<T>, options: { group: boolean } = { group: false }): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await inTransaction(this.database.pool, { statementTimeoutMs: STATEMENT_TIMEOUT_MS }, async (client) => {
          const tx = new CustomersTransaction(client, options);
          const result = await work(tx);
          await tx.flush(); // customers' changes are written once, at the end (customers-transaction.ts)
          return result;
        });
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !isRetryableConflict(error)) throw error;
      }
    }
  }

  /**
   * Runs `work` in the transaction that records `msgId` as processed by `consumer` (@hc/events
   * markProcessed): both commit or neither does, so a redelivered message changes nothing. Resolves
   * false, without running `work`, for a message applied before.
   */
  applyOnce(consumer: string, msgId: string, work: (tx: CustomersTransaction) => Promise<void>): Promise<boolean> {
    return this.transaction(async (tx) => {
      if (!(await tx.markProcessed(consumer, msgId))) return false;
      await work(tx);
      return true;
    });
  }

  /**
   * Group commit (docs/adr/0033): several messages in ONE transaction, in order, each recorded as
   * processed with its change (a message applied before is skipped). All commit or none does; a
   * failure of any rolls the whole group back and is rethrown (the consumer then applies them one by
   * one). Resolves how many were applied (not skipped).
   */
  applyManyOnce(
    consumer: string,
    items: readonly { msgId: string; work: (tx: CustomersTransaction) => Promise<void> }[],
    /** Runs once before the messages not applied before (their ids given), e.g. to lock their customers together. */
    prepare?: (tx: CustomersTransaction, fresh: ReadonlySet<string>) => Promise<void>,
  ): Promise<number> {
    return this.transaction(
      async (tx) => {
        // One statement records the whole group; each message not applied before is applied once, in order.
        const fresh = await tx.markManyProcessed(
          consumer,
          items.map((item) => item.msgId),
        );
        if (prepare) await prepare(tx, fresh);
        let applied = 0;
        for (const item of items) {
          if (!fresh.delete(item.msgId)) continue;
          await item.work(tx);
          applied += 1;
        }
        return applied;
      },
      { group: true },
    );
  }

  /** One prepared statement, children included (Prisma's include took a query per child table). */
  async findCustomer(scope: Scope, id: string): Promise<Customer | null> {
    const { rows } = await this.database.pool.query<CustomerSelectRow>(statements.findCustomer(scope, id));
    return rows[0] ? customerOfRow(rows[0]) : null;
  }

  /** Newest first by creation, ties broken by id: one prepared statement, children included. */
  async listCustomers(scope: Scope, query: CustomerListQuery): Promise<Customer[]> {
    const { rows } = await this.database.pool.query<CustomerSelectRow>(statements.listCustomers(scope, query));
    return rows.map(customerOfRow);
  }

  async findOrder(scope: Scope, id: string): Promise<Order | null> {
    const row = await this.prisma.order.findFirst({ where: { id, ...inScope(scope) } });
    return row ? toOrder(row) : null;
  }

  /** Newest first by creation, ties broken by id. */
  async listOrders(scope: Scope, query: OrderListQuery): Promise<Order[]> {
    const { after } = query;
    const rows = await this.prisma.order.findMany({
      where: {
        ...inScope(scope),
        ...(query.customerId !== undefined ? { customerId: query.customerId } : {}),
        ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: query.limit,
    });
    return rows.map(toOrder);
  }

  /** The private note, or undefined when the customer is not the caller's. */
  async findNote(scope: Scope, customerId: string): Promise<{ note: string | null } | undefined> {
    const row = await this.prisma.customer.findFirst({ where: { id: customerId, ...inScope(scope) }, select: { note: true } });
    return row ?? undefined;
  }

  /** False when the customer is not the caller's. A prepared statement, as every write of customers is. */
  async setNote(scope: Scope, customerId: string, note: string | null): Promise<boolean> {
    const { rowCount } = await this.database.pool.query(statements.setNote(scope, customerId, note));
    return rowCount === 1;
  }
}
