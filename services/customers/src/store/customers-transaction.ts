import type pg from 'pg';
import { writeOutbox } from '@hc/events';
import { newId } from '@hc/ids';
import { customerRowChanges } from '../domain/customer-changes.ts';
import type { Customer, Order, Scope } from '../domain/customer.ts';
import { saveCustomers } from './customer-saves.ts';
import { HeldOrders } from './held-orders.ts';
import { customerOfRow, lockedOrder, type CustomerSelectRow, type LockedOrderRow } from './rows.ts';
import * as statements from './statements.ts';

const emailKey = (scope: Scope, email: string): string => `${scope.accountId} ${String(scope.livemode)} ${email}`;

/** A customer this transaction has locked: as last written to the database, and as it is now. */
interface HeldCustomer {
  written: Customer;
  current: Customer;
  /** When the unwritten change happened (the latest); undefined when current is what was written. */
  changedAt: Date | undefined;
}

/**
 * The writes of one transaction, each a prepared statement on the transaction's connection (no
 * Prisma on the consumer's path: docs/performance.md). Rows are locked (SELECT … FOR UPDATE) before
 * they are read for a change, so replicas applying events of the same order or customer take turns.
 *
 * A customer is locked and read once per transaction and written once, at its end (flush): a group
 * of events (docs/adr/0033) about one customer — a shop's regular, a flash sale's many orders from
 * one address — costs one read and one write of it instead of two of each per event. The lock is
 * held from the first read to the commit, so nobody else can change the row in between and the
 * copy held here stays the truth. Orders are held the same way (held-orders.ts).
 */
export class CustomersTransaction {
  private readonly client: pg.PoolClient;
  private readonly customers = new Map<string, HeldCustomer>();
  /** Non-erased customers' ids by scope and email, for findOrCreateCustomer. */
  private readonly byEmail = new Map<string, string>();
  private readonly orders: HeldOrders;

  /** `group`: the transaction applies a group of messages, and its new orders wait for the flush. */
  constructor(client: pg.PoolClient, options: { group: boolean } = { group: false }) {
    this.client = client;
    this.orders = new HeldOrders(client, options.group);
  }

  async markProcessed(consumer: string, msgId: string): Promise<boolean> {
    return (await this.client.query(statements.markProcessed(consumer, msgId))).rowCount === 1;
  }

  /** Records a group's messages as processed in one statement; resolves the ids not applied before. */
  async markManyProcessed(consumer: string, msgIds: readonly string[]): Promise<Set<string>> {
    const { rows } = await this.client.query<{ msgId: string }>(statements.markManyProcessed(consumer, msgIds));
    return new Set(rows.map((row) => row.msgId));
  }

  /**
   * Writes every customer changed since it was locked (one statement, customer-saves.ts, when several
   * changed), then the orders (new ones refer to customers, which exist from findOrCreateCustomer on).
   * Runs before the commit.
   */
  async flush(): Promise<void> {
    const changed = [...this.customers.values()].filter((held) => held.changedAt !== undefined);
    const saves = changed.map((held) => ({
      customer: held.current,
      changes: customerRowChanges(held.written, held.current),
      at: held.changedAt!,
    }));
    // One customer (a regular's group, the common case) keeps its prepared statement; several go in one planned per group.
    if (saves.length === 1) await this.client.query(statements.saveCustomer(saves[0]!.customer, saves[0]!.changes, saves[0]!.at));
    if (saves.length > 1) await this.client.query(saveCustomers(saves));
    for (const held of changed) {
      held.written = held.current;
      held.changedAt = undefined;
    }
    await this.orders.flush();
  }

  /** The order, locked; null when it is not (yet) known in this scope. */
  lockOrder(scope: Scope, id: string): Promise<Order | null> {
    return this.orders.lock(scope, id);
  }

  /** False when an order with this id exists already (HeldOrders.insert). */
  insertOrder(order: Order): Promise<boolean> {
    return this.orders.insert(order);
  }

  /** A locked or new order's new state, written at the flush. */
  saveOrder(order: Order): Promise<void> {
    this.orders.save(order);
    return Promise.resolve();
  }

  /** The customer, locked; in `scope` when given. One statement (CUSTOMER_SELECT) the first time. */
  async lockCustomer(id: string, scope?: Scope): Promise<Customer | null> {
    const held = this.customers.get(id);
    if (held)
      return !scope || (held.current.accountId === scope.accountId && held.current.livemode === scope.livemode) ? held.current : null;
    const query = scope ? statements.lockCustomerInScope(id, scope.accountId, scope.livemode) : statements.lockCustomerById(id);
    const { rows } = await this.client.query<CustomerSelectRow>(query);
    return rows[0] ? this.hold(customerOfRow(rows[0])) : null;
  }

  /**
   * The non-erased customer with this email in this scope, created if there is none (rule 1), and
   * locked. Race-safe: concurrent creators meet on the partial unique index; the loser's INSERT waits
   * for the winner's commit, does nothing, and then finds the winner's row.
   */
  async findOrCreateCustomer(scope: Scope, email: string, firstSeenAt: Date): Promise<Customer> {
    const heldId = this.byEmail.get(emailKey(scope, email));
    const held = heldId === undefined ? undefined : this.customers.get(heldId)?.current;
    if (held && held.email === email && !held.erased) return held;
    const id = newId('customer', firstSeenAt.getTime());
    await this.client.query(statements.insertCustomerIfNew(id, scope.accountId, scope.livemode, email, firstSeenAt));
    const { rows } = await this.client.query<CustomerSelectRow>(statements.lockCustomerByEmail(scope.accountId, scope.livemode, email));
    // Only possible when the customer was erased between our INSERT and SELECT: the retry creates a new one.
    if (rows.length === 0) throw Object.assign(new Error('customer erased while being found; retrying'), { code: '40001' });
    return this.hold(customerOfRow(rows[0]!));
  }

  /**
   * findOrCreateCustomer for several emails at once (a group's orders, before they are applied): two
   * statements for all of them instead of two per customer; findOrCreateCustomer then finds each held.
   * An email whose customer is not held afterwards (erased in between) is left to findOrCreateCustomer.
   */
  async holdCustomersByEmail(wanted: readonly { scope: Scope; email: string; firstSeenAt: Date }[]): Promise<void> {
    const fresh = new Map<string, { scope: Scope; email: string; firstSeenAt: Date }>();
    for (const w of wanted) {
      const key = emailKey(w.scope, w.email);
      if (!this.byEmail.has(key) && !fresh.has(key)) fresh.set(key, w);
    }
    // One customer is as cheap alone (prepared statements); grouping pays from two on.
    if (fresh.size < 2) return;
    const sorted = [...fresh.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, w]) => w);
    const rows = sorted.map((w) => ({
      id: newId('customer', w.firstSeenAt.getTime()),
      accountId: w.scope.accountId,
      livemode: w.scope.livemode,
      email: w.email,
      createdAt: w.firstSeenAt,
    }));
    await this.client.query(statements.insertCustomersIfNew(rows));
    const { rows: locked } = await this.client.query<CustomerSelectRow>(statements.lockCustomersByEmail(rows));
    for (const row of locked) if (!this.customers.has(row.id)) this.hold(customerOfRow(row));
  }

  /**
   * A locked customer's new details and counters. Written at flush, in one statement with only the
   * spent sums and store accounts that differ from the row as it was last written.
   */
  saveCustomer(before: Customer, customer: Customer, at: Date): Promise<void> {
    const held = this.customers.get(before.id);
    if (!held) throw new Error(`customer ${before.id} saved without being locked in this transaction`);
    held.current = customer;
    held.changedAt = at;
    return Promise.resolve();
  }

  /** The customer's orders other than `exceptOrderId`, oldest first (ties by id). */
  async ordersOfCustomer(customerId: string, exceptOrderId: string): Promise<Order[]> {
    await this.orders.flush(); // the statement reads the table: it must see this transaction's orders
    const { rows } = await this.client.query<LockedOrderRow>(statements.ordersOfCustomer(customerId, exceptOrderId));
    return rows.map(lockedOrder);
  }

  /**
   * Rule 7 in this store: the customer's contact details, note and store customer ids, and the
   * personal details of its orders, become null. Returns its orders (id, email revision), oldest first.
   */
  async eraseCustomerData(customerId: string, at: Date): Promise<{ id: string; emailRevision: number }[]> {
    await this.flush();
    this.customers.delete(customerId); // the statement changes the rows: read them again if needed
    this.orders.forgetCustomer(customerId);
    const { rows } = await this.client.query<{ id: string; emailRevision: number }>(statements.eraseCustomerData(customerId, at));
    return rows;
  }

  private hold(customer: Customer): Customer {
    this.customers.set(customer.id, { written: customer, current: customer, changedAt: undefined });
    if (customer.email !== null && !customer.erased) this.byEmail.set(emailKey(customer, customer.email), customer.id);
    return customer;
  }

  /** Queues an event for the outbox relay, published once this transaction commits. */
  async enqueue(msgId: string, subject: string, payload: object): Promise<void> {
    await writeOutbox(this.client, [{ msgId, subject, payload }]);
  }
}
