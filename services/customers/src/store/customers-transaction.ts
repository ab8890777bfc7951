import type pg from 'pg';
import { currentTraceparent } from '@hc/events';
import { newId } from '@hc/ids';
import { customerRowChanges } from '../domain/customer-changes.ts';
import type { Customer, Order, Scope } from '../domain/customer.ts';
import { lockedCustomer, lockedOrder, type LockedCustomerRow, type LockedOrderRow } from './rows.ts';
import * as statements from './statements.ts';

/**
 * The writes of one transaction, each a prepared statement on the transaction's connection (no
 * Prisma on the consumer's path: docs/performance.md). Rows are locked (SELECT … FOR UPDATE) before
 * they are read for a change, so replicas applying events of the same order or customer take turns.
 */
export class CustomersTransaction {
  private readonly client: pg.PoolClient;

  constructor(client: pg.PoolClient) {
    this.client = client;
  }

  async markProcessed(consumer: string, msgId: string): Promise<boolean> {
    return (await this.client.query(statements.markProcessed(consumer, msgId))).rowCount === 1;
  }

  /** The order, locked; null when it is not (yet) known in this scope. */
  async lockOrder(scope: Scope, id: string): Promise<Order | null> {
    const { rows } = await this.client.query<LockedOrderRow>(statements.lockOrder(id, scope.accountId, scope.livemode));
    return rows[0] ? lockedOrder(rows[0]) : null;
  }

  /** False when an order with this id exists already. */
  async insertOrder(order: Order): Promise<boolean> {
    return (await this.client.query(statements.insertOrder(order))).rowCount === 1;
  }

  async saveOrder(order: Order): Promise<void> {
    await this.client.query(statements.updateOrder(order));
  }

  /** The customer, locked; in `scope` when given. One statement (LOCKED_CUSTOMER_SELECT). */
  async lockCustomer(id: string, scope?: Scope): Promise<Customer | null> {
    const query = scope ? statements.lockCustomerInScope(id, scope.accountId, scope.livemode) : statements.lockCustomerById(id);
    const { rows } = await this.client.query<LockedCustomerRow>(query);
    return rows[0] ? lockedCustomer(rows[0]) : null;
  }

  /**
   * The non-erased customer with this email in this scope, created if there is none (rule 1), and
   * locked. Race-safe: concurrent creators meet on the partial unique index; the loser's INSERT waits
   * for the winner's commit, does nothing, and then finds the winner's row.
   */
  async findOrCreateCustomer(scope: Scope, email: string, firstSeenAt: Date): Promise<Customer> {
    const id = newId('customer', firstSeenAt.getTime());
    await this.client.query(statements.insertCustomerIfNew(id, scope.accountId, scope.livemode, email, firstSeenAt));
    const { rows } = await this.client.query<LockedCustomerRow>(statements.lockCustomerByEmail(scope.accountId, scope.livemode, email));
    // Only possible when the customer was erased between our INSERT and SELECT: the retry creates a new one.
    if (rows.length === 0) throw Object.assign(new Error('customer erased while being found; retrying'), { code: '40001' });
    return lockedCustomer(rows[0]!);
  }

  /**
   * Writes a locked customer's details and counters, and of its spent sums and store accounts only
   * the rows that differ from `before` (the customer as locked), in one statement.
   */
  async saveCustomer(before: Customer, customer: Customer, at: Date): Promise<void> {
    await this.client.query(statements.saveCustomer(customer, customerRowChanges(before, customer), at));
  }

  /** The customer's orders other than `exceptOrderId`, oldest first (ties by id). */
  async ordersOfCustomer(customerId: string, exceptOrderId: string): Promise<Order[]> {
    const { rows } = await this.client.query<LockedOrderRow>(statements.ordersOfCustomer(customerId, exceptOrderId));
    return rows.map(lockedOrder);
  }

  /**
   * Rule 7 in this store: the customer's contact details, note and store customer ids, and the
   * personal details of its orders, become null. Returns its orders (id, email revision), oldest first.
   */
  async eraseCustomerData(customerId: string, at: Date): Promise<{ id: string; emailRevision: number }[]> {
    const { rows } = await this.client.query<{ id: string; emailRevision: number }>(statements.eraseCustomerData(customerId, at));
    return rows;
  }

  /** Queues an event for the outbox relay, published once this transaction commits. */
  async enqueue(msgId: string, subject: string, payload: object): Promise<void> {
    await this.client.query(statements.enqueue(msgId, subject, payload, currentTraceparent()));
  }
}
