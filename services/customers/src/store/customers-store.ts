import { currentTraceparent, MARK_PROCESSED_SQL, OUTBOX_NOTIFY_SQL } from '@hc/events';
import { newId } from '@hc/ids';
import { customerRowChanges } from '../domain/customer-changes.ts';
import type { Customer, Order, Scope } from '../domain/customer.ts';
import { Prisma } from './generated/prisma/client.ts';
import type { CustomersPrisma } from './prisma.ts';
import {
  addressJson,
  customerInclude,
  LOCKED_CUSTOMER_SELECT,
  LOCKED_ORDER_SELECT,
  lockedCustomer,
  lockedOrder,
  orderData,
  toCustomer,
  toOrder,
  type LockedCustomerRow,
  type LockedOrderRow,
} from './rows.ts';

type Tx = Prisma.TransactionClient;

/** Only the scope's two keys: callers often pass a whole CallContext, whose other fields are no columns. */
const inScope = (scope: Scope) => ({ accountId: scope.accountId, livemode: scope.livemode });

// Deadlocks (two replicas locking the same two customers in opposite order while moving orders) and
// serialization failures are resolved by running the transaction again.
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 4;

function isRetryableConflict(error: unknown): boolean {
  // Prisma reports it as P2034; with the pg adapter the SQLSTATE sits deeper (meta.driverAdapterError.cause).
  const pending: unknown[] = [error];
  for (let seen = 0; pending.length > 0 && seen < 10; seen += 1) {
    const e = pending.shift();
    if (typeof e !== 'object' || e === null) continue;
    const { code, originalCode, kind, cause, meta } = e as Record<string, unknown>;
    if (code === 'P2034' || kind === 'TransactionWriteConflict') return true;
    if (RETRYABLE_SQLSTATES.has(String(code)) || RETRYABLE_SQLSTATES.has(String(originalCode))) return true;
    pending.push(cause, meta, (meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError);
  }
  return false;
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

/** The only code that knows the customers tables. Every public lookup requires the caller's scope. */
export class CustomersStore {
  private readonly prisma: CustomersPrisma;

  constructor(prisma: CustomersPrisma) {
    this.prisma = prisma;
  }

  /** Runs `work` in one transaction (retried whole on a deadlock). */
  async transaction<T>(work: (tx: CustomersTransaction) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.prisma.$transaction((tx) => work(new CustomersTransaction(tx)), { timeout: 15_000, maxWait: 10_000 });
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
  applyManyOnce(consumer: string, items: readonly { msgId: string; work: (tx: CustomersTransaction) => Promise<void> }[]): Promise<number> {
    return this.transaction(async (tx) => {
      let applied = 0;
      for (const item of items) {
        if (!(await tx.markProcessed(consumer, item.msgId))) continue;
        await item.work(tx);
        applied += 1;
      }
      return applied;
    });
  }

  async findCustomer(scope: Scope, id: string): Promise<Customer | null> {
    const row = await this.prisma.customer.findFirst({ where: { id, ...inScope(scope) }, include: customerInclude });
    return row ? toCustomer(row) : null;
  }

  /** Newest first by creation, ties broken by id. */
  async listCustomers(scope: Scope, query: CustomerListQuery): Promise<Customer[]> {
    const { after } = query;
    const rows = await this.prisma.customer.findMany({
      where: {
        ...inScope(scope),
        ...(query.email !== undefined ? { email: query.email, erased: false } : {}),
        ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
      },
      include: customerInclude,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: query.limit,
    });
    return rows.map(toCustomer);
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

  /** False when the customer is not the caller's. */
  async setNote(scope: Scope, customerId: string, note: string | null): Promise<boolean> {
    const { count } = await this.prisma.customer.updateMany({ where: { id: customerId, ...inScope(scope) }, data: { note } });
    return count === 1;
  }
}

/**
 * The writes of one transaction. Rows are locked (SELECT … FOR UPDATE) before they are read for a
 * change, so replicas applying events of the same order or customer at once take turns.
 */
export class CustomersTransaction {
  private readonly tx: Tx;

  constructor(tx: Tx) {
    this.tx = tx;
  }

  async markProcessed(consumer: string, msgId: string): Promise<boolean> {
    return (await this.tx.$executeRawUnsafe(MARK_PROCESSED_SQL, consumer, msgId)) === 1;
  }

  /** The order, locked; null when it is not (yet) known in this scope. */
  async lockOrder(scope: Scope, id: string): Promise<Order | null> {
    const rows = await this.tx.$queryRawUnsafe<LockedOrderRow[]>(
      `${LOCKED_ORDER_SELECT} WHERE id = $1 AND account_id = $2 AND livemode = $3 FOR UPDATE`,
      id,
      scope.accountId,
      scope.livemode,
    );
    return rows[0] ? lockedOrder(rows[0]) : null;
  }

  /** False when an order with this id exists already. */
  async insertOrder(order: Order): Promise<boolean> {
    const { count } = await this.tx.order.createMany({
      data: [{ id: order.id, accountId: order.accountId, livemode: order.livemode, ...orderData(order) }],
      skipDuplicates: true,
    });
    return count === 1;
  }

  async saveOrder(order: Order): Promise<void> {
    await this.tx.order.update({ where: { id: order.id }, data: orderData(order) });
  }

  /** The customer, locked; in `scope` when given. One statement (LOCKED_CUSTOMER_SELECT). */
  async lockCustomer(id: string, scope?: Scope): Promise<Customer | null> {
    const rows = scope
      ? await this.tx.$queryRawUnsafe<LockedCustomerRow[]>(
          `${LOCKED_CUSTOMER_SELECT} WHERE c.id = $1 AND c.account_id = $2 AND c.livemode = $3 FOR UPDATE OF c`,
          id,
          scope.accountId,
          scope.livemode,
        )
      : await this.tx.$queryRawUnsafe<LockedCustomerRow[]>(`${LOCKED_CUSTOMER_SELECT} WHERE c.id = $1 FOR UPDATE OF c`, id);
    return rows[0] ? lockedCustomer(rows[0]) : null;
  }

  /**
   * The non-erased customer with this email in this scope, created if there is none (rule 1), and
   * locked. Race-safe: concurrent creators meet on the partial unique index; the loser's INSERT waits
   * for the winner's commit, does nothing, and then finds the winner's row.
   */
  async findOrCreateCustomer(scope: Scope, email: string, firstSeenAt: Date): Promise<Customer> {
    await this.tx.$executeRaw`
      INSERT INTO customers (id, account_id, livemode, email, created_at)
      VALUES (${newId('customer', firstSeenAt.getTime())}, ${scope.accountId}, ${scope.livemode}, ${email}, ${firstSeenAt})
      ON CONFLICT (account_id, livemode, email) WHERE NOT erased DO NOTHING`;
    const found = await this.tx.$queryRawUnsafe<LockedCustomerRow[]>(
      `${LOCKED_CUSTOMER_SELECT} WHERE c.account_id = $1 AND c.livemode = $2 AND c.email = $3 AND NOT c.erased FOR UPDATE OF c`,
      scope.accountId,
      scope.livemode,
      email,
    );
    // Only possible when the customer was erased between our INSERT and SELECT: the retry creates a new one.
    if (found.length === 0) throw Object.assign(new Error('customer erased while being found; retrying'), { code: '40001' });
    return lockedCustomer(found[0]!);
  }

  /**
   * Writes a locked customer's details and counters, and of its spent sums and store accounts only
   * the rows that differ from `before` (the customer as locked): one UPDATE for most events.
   */
  async saveCustomer(before: Customer, customer: Customer, at: Date): Promise<void> {
    const { id } = customer;
    await this.tx.customer.update({
      where: { id },
      data: {
        name: customer.name,
        phone: customer.phone,
        shippingAddress: addressJson(customer.shippingAddress),
        billingAddress: addressJson(customer.billingAddress),
        ordersCount: customer.ordersCount,
        paidOrdersCount: customer.paidOrdersCount,
        lastOrderAt: customer.lastOrderAt,
      },
    });
    const changes = customerRowChanges(before, customer);
    if (changes.spentToDelete.length > 0)
      await this.tx.customerSpent.deleteMany({ where: { customerId: id, currency: { in: changes.spentToDelete } } });
    for (const [currency, amount] of changes.spentToWrite) {
      await this.tx.customerSpent.upsert({
        where: { customerId_currency: { customerId: id, currency } },
        create: { customerId: id, currency, amount },
        update: { amount },
      });
    }
    // Store accounts not in the list are gone (a moved order took its own away).
    if (changes.storeAccountsToDelete.length > 0)
      await this.tx.customerStoreAccount.deleteMany({ where: { customerId: id, OR: changes.storeAccountsToDelete } });
    for (const account of changes.storeAccountsToWrite) {
      const values = { storeName: account.storeName, storeCustomerId: account.customerId };
      await this.tx.customerStoreAccount.upsert({
        where: { customerId_platform_storeId: { customerId: id, platform: account.platform, storeId: account.storeId } },
        create: { customerId: id, platform: account.platform, storeId: account.storeId, ...values, updatedAt: at },
        update: values,
      });
    }
  }

  /** The customer's orders other than `exceptOrderId`, oldest first (ties by id). */
  async ordersOfCustomer(customerId: string, exceptOrderId: string): Promise<Order[]> {
    const rows = await this.tx.order.findMany({
      where: { customerId, id: { not: exceptOrderId } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map(toOrder);
  }

  /**
   * Rule 7 in this store: the customer's contact details, note and store customer ids, and the
   * personal details of its orders, become null. Returns its orders (id, email revision), oldest first.
   */
  async eraseCustomerData(customerId: string, at: Date): Promise<{ id: string; emailRevision: number }[]> {
    await this.tx.customer.update({
      where: { id: customerId },
      data: {
        email: null,
        name: null,
        phone: null,
        shippingAddress: Prisma.DbNull,
        billingAddress: Prisma.DbNull,
        note: null,
        erased: true,
        erasedAt: at,
      },
    });
    await this.tx.customerStoreAccount.updateMany({ where: { customerId }, data: { storeCustomerId: null } });
    await this.tx.order.updateMany({
      where: { customerId },
      data: { email: null, name: null, phone: null, shippingAddress: Prisma.DbNull, billingAddress: Prisma.DbNull, storeCustomerId: null },
    });
    return this.tx.order.findMany({
      where: { customerId },
      select: { id: true, emailRevision: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  /** Queues an event for the outbox relay, published once this transaction commits. */
  async enqueue(msgId: string, subject: string, payload: object): Promise<void> {
    await this.tx.outboxMessage.createMany({
      data: [{ msgId, subject, payload: payload as Prisma.InputJsonValue, traceParent: currentTraceparent() }],
      skipDuplicates: true,
    });
    // Delivered at commit: wakes the outbox relay without waiting for its next poll.
    await this.tx.$executeRawUnsafe(OUTBOX_NOTIFY_SQL);
  }
}
