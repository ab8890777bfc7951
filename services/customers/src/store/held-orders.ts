import type pg from 'pg';
import type { Order, Scope } from '../domain/customer.ts';
import { lockedOrder, type LockedOrderRow } from './rows.ts';
import * as statements from './statements.ts';

/** What a held order still owes the database at the flush. */
type PendingWrite = 'none' | 'insert' | 'update';

/**
 * A group's new orders met an order of the same id written by someone else (a second session.created
 * for one session, from another message id: a producer bug). Thrown at the flush; the consumer then
 * applies the group's messages one by one, and the one-by-one path keeps the first order.
 */
export class OrderAlreadyWrittenError extends Error {
  override name = 'OrderAlreadyWrittenError';
}

/**
 * The orders one transaction has locked or created, as they are now, written once at its end (flush):
 * a group of events (docs/adr/0033) creates each order and attaches it to its customer with one row
 * written, and the group's new orders go in one statement, its changed ones in another, instead of an
 * insert and an update per order (docs/adr/0066).
 *
 * A held order is the truth until the commit: an existing one was read FOR UPDATE, a new one is
 * invisible to everyone else until then (and a concurrent insert of its id waits for ours).
 */
export class HeldOrders {
  private readonly client: pg.PoolClient;
  /** New orders wait for the flush (a group), or are inserted at once (one message: its answer must be exact). */
  private readonly deferInserts: boolean;
  private readonly held = new Map<string, { order: Order; pending: PendingWrite }>();

  constructor(client: pg.PoolClient, deferInserts: boolean) {
    this.client = client;
    this.deferInserts = deferInserts;
  }

  /**
   * A new order; false when one with its id exists already (then nothing changes). Deferred, an order
   * of this id written by someone else is found at the flush (OrderAlreadyWrittenError).
   */
  async insert(order: Order): Promise<boolean> {
    if (this.held.has(order.id)) return false;
    if (this.deferInserts) {
      this.held.set(order.id, { order, pending: 'insert' });
      return true;
    }
    const inserted = (await this.client.query(statements.insertOrder(order))).rowCount === 1;
    if (inserted) this.held.set(order.id, { order, pending: 'none' });
    return inserted;
  }

  /** The order, locked; null when it is not (yet) known in this scope. */
  async lock(scope: Scope, id: string): Promise<Order | null> {
    const held = this.held.get(id);
    if (held) return held.order.accountId === scope.accountId && held.order.livemode === scope.livemode ? held.order : null;
    const { rows } = await this.client.query<LockedOrderRow>(statements.lockOrder(id, scope.accountId, scope.livemode));
    if (!rows[0]) return null;
    const order = lockedOrder(rows[0]);
    this.held.set(order.id, { order, pending: 'none' });
    return order;
  }

  /** A held order's new state, written at the flush. */
  save(order: Order): void {
    const held = this.held.get(order.id);
    if (!held) throw new Error(`order ${order.id} saved without being locked or created in this transaction`);
    held.order = order;
    if (held.pending === 'none') held.pending = 'update';
  }

  /** Writes what is pending: the new orders in one statement (by id, so replicas take locks in one order), the changed ones in another. */
  async flush(): Promise<void> {
    const pending = [...this.held.values()].filter((held) => held.pending !== 'none');
    if (pending.length === 0) return;
    const byId = (a: Order, b: Order): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const inserts = pending.filter((held) => held.pending === 'insert').map((held) => held.order);
    const updates = pending.filter((held) => held.pending === 'update').map((held) => held.order);
    if (inserts.length > 0) {
      const { rowCount } = await this.client.query(statements.insertOrders(inserts.sort(byId)));
      if (rowCount !== inserts.length)
        throw new OrderAlreadyWrittenError(`${inserts.length - (rowCount ?? 0)} order(s) of this group existed already`);
    }
    if (updates.length > 0) await this.client.query(statements.updateOrders(updates.sort(byId)));
    for (const held of pending) held.pending = 'none';
  }

  /** Forgets a customer's orders after a statement changed their rows behind this copy (erasure). */
  forgetCustomer(customerId: string): void {
    for (const [id, held] of this.held) if (held.order.customerId === customerId) this.held.delete(id);
  }
}
