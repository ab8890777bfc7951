// Risk covered: counters that drift from the orders they count — a redelivered message applied twice,
// an order event overtaking its session.created, two replicas creating the same customer at once, a
// paid order moving between customers. Use-case level over real PostgreSQL, with events shaped
// exactly as docs/events.md documents them (the NATS path is covered by customers-api.int.test.ts).
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { ConsumedMessage } from '@hc/events';
import { newId } from '@hc/ids';
import { createTestDatabase, type TestDatabase } from '@hc/test-kit';
import pg from 'pg';
import { CUSTOMERS_MIGRATIONS_DIR } from '../src/migrations.ts';
import { CustomersStore } from '../src/store/customers-store.ts';
import { createCustomersDatabase, type CustomersDatabase } from '../src/store/prisma.ts';
import { parseCheckoutEvent } from '../src/domain/checkout-events.ts';
import { applyCheckoutEvent, applyCheckoutEventsTogether, OrderNotYetKnownError } from '../src/use-cases/apply-checkout-event.ts';
import type { CustomersDependencies } from '../src/use-cases/dependencies.ts';
import { OrderAlreadyWrittenError } from '../src/store/held-orders.ts';
import { getCustomer, getOrder, listCustomers } from '../src/use-cases/read-customers.ts';

const CONSUMER = 'customers';
const scope = { accountId: 'acct_apply', livemode: false };
let db: TestDatabase;
let database: CustomersDatabase;
let deps: CustomersDependencies;
let clockMs = Date.UTC(2026, 2, 1);

beforeAll(async () => {
  db = await createTestDatabase('customers', CUSTOMERS_MIGRATIONS_DIR);
  database = createCustomersDatabase(db.url);
  deps = { store: new CustomersStore(database), now: () => new Date() };
});
afterAll(async () => {
  await database.close();
  await db.drop();
});

function message(data: { id: string }): ConsumedMessage {
  return { msgId: data.id, subject: 'checkout.x', data, redelivered: false };
}

function sessionCreated(
  email: string | null,
  amount = '40.00',
  currency = 'EUR',
  details: {
    name?: string;
    phone?: string;
    storeAccount?: { platform: string; storeId: string; storeName: string; customerId: string };
  } = {},
) {
  clockMs += 1000;
  const id = newId('payment', clockMs);
  return {
    id: `${id}.session.created`,
    type: 'session.created',
    occurredAt: clockMs,
    ...scope,
    session: { id, amount, currency, status: 'open', createdAt: clockMs, customerEmail: email },
    customer: {
      name: details.name ?? 'Ada Lovelace',
      phone: details.phone ?? null,
      shippingAddress: null,
      billingAddress: null,
      storeAccount: details.storeAccount ?? null,
    },
  };
}

function sessionStarted(sessionId: string, email: string, revision: number) {
  clockMs += 1000;
  return {
    id: `${sessionId}.session.started.${revision}`,
    type: 'session.started',
    occurredAt: clockMs,
    ...scope,
    sessionId,
    customerEmail: email,
    revision,
  };
}

function paymentPaid(sessionId: string, cause: string, amount = '40.00', currency = 'EUR') {
  clockMs += 1000;
  return {
    id: `${sessionId}.payment.paid.${cause}`,
    type: 'payment.paid',
    occurredAt: clockMs,
    ...scope,
    payment: { id: sessionId, amount, currency, status: 'paid', paidAt: clockMs, customerEmail: 'someone@example.com' },
  };
}

const apply = (data: Record<string, unknown> & { id: string }) => applyCheckoutEvent(deps, CONSUMER, message(data));

async function customerByEmail(email: string) {
  const page = await listCustomers(deps, scope, { limit: 1, email });
  return page.items[0];
}

describe('applying checkout events exactly once', () => {
  it('a redelivered message changes nothing', async () => {
    const created = sessionCreated('once@example.com');
    const paid = paymentPaid(created.session.id, 'vrd_1');
    expect(await apply(created)).toBe('applied');
    expect(await apply(created)).toBe('duplicate');
    expect(await apply(paid)).toBe('applied');
    expect(await apply(paid)).toBe('duplicate');
    expect(await customerByEmail('once@example.com')).toMatchObject({ ordersCount: 1, paidOrdersCount: 1, spent: { EUR: '40.00' } });
  });

  it('ignores event types it does not read', async () => {
    expect(await apply({ ...sessionCreated('x@example.com'), type: 'session.renamed' })).toBe('ignored');
  });

  it('an order event before its session.created fails (to be redelivered) and leaves no trace', async () => {
    const created = sessionCreated(null);
    const started = sessionStarted(created.session.id, 'early@example.com', 1);
    await expect(apply(started)).rejects.toBeInstanceOf(OrderNotYetKnownError);
    await expect(apply(paymentPaid(created.session.id, 'vrd_early'))).rejects.toBeInstanceOf(OrderNotYetKnownError);
    await apply(created);
    expect(await apply(started)).toBe('applied');
    expect(await customerByEmail('early@example.com')).toMatchObject({ ordersCount: 1, paidOrdersCount: 0 });
  });
});

describe('a group of events in one transaction (docs/adr/0033)', () => {
  /** Orders of two emails: created, paid, one duplicate, one moved from the first email to the second. */
  function story(first: string, second: string) {
    const one = sessionCreated(first, '10.00', 'EUR', {
      name: 'First Name',
      storeAccount: { platform: 'shopify', storeId: 'store-1', storeName: 'One', customerId: 'c-1' },
    });
    const two = sessionCreated(first, '20.00', 'EUR');
    const three = sessionCreated(first, '30.00', 'USD', {
      name: 'Third Name',
      phone: '+1 3',
      storeAccount: { platform: 'woocommerce', storeId: 'store-3', storeName: 'Three', customerId: 'c-3' },
    });
    return [
      one,
      two,
      three,
      paymentPaid(one.session.id, 'v1', '10.00', 'EUR'),
      two, // redelivered within the group: applied once
      sessionStarted(three.session.id, second, 1),
      paymentPaid(three.session.id, 'v3', '30.00', 'USD'),
      sessionCreated(second, '5.00', 'EUR'),
    ];
  }
  const comparable = async (email: string) => {
    const customer = await customerByEmail(email);
    // Each story has its own timestamps: lastOrderAt is checked against its own events below.
    const { id: _id, email: _email, createdAt: _created, lastOrderAt: _last, ...rest } = customer!;
    return rest;
  };

  /** An order as the API shows it, without what differs between two stories (ids, times, customer, the email's prefix). */
  const comparableOrder = async (id: string) => {
    const { id: _id, customerId, createdAt: _created, statusAt: _status, paidAt, email, ...rest } = await getOrder(deps, scope, id);
    return { ...rest, email: email?.replace(/^(alone|group)-/, ''), hasCustomer: customerId !== null, paid: paidAt !== null };
  };

  it('leaves customers and orders exactly as applying the events one by one does, and writes the customers once, together', async () => {
    const alone = story('alone-a@example.com', 'alone-b@example.com');
    for (const event of alone) await apply(event);
    const events = story('group-a@example.com', 'group-b@example.com');
    const queries = jest.spyOn(pg.Client.prototype, 'query'); // counts statements; each still runs
    let saves: number;
    let named: (string | undefined)[];
    try {
      const applied = await applyCheckoutEventsTogether(
        deps,
        CONSUMER,
        events.map((event) => ({ msgId: event.id, event: parseCheckoutEvent(event) })),
      );
      expect(applied).toBe(7);
      // A statement by its name, or by its first words when it has none (planned each time).
      named = queries.mock.calls.map(([query]) => {
        const { name, text } = query as { name?: string; text?: string };
        return name ?? text?.split(/\s+/).slice(0, 3).join(' ');
      });
      saves = named.filter((name) => name === 'customers_save_customer' || name === 'WITH r AS').length;
    } finally {
      queries.mockRestore();
    }
    // Orders are written in groups (docs/adr/0066): never one insert or update per order. The move in
    // the story reads the first customer's orders, so the orders created before it are written first.
    expect(named.filter((name) => name === 'customers_insert_order')).toEqual([]);
    expect(named.filter((name) => name === 'customers_insert_orders').length).toBe(2);
    expect(named.filter((name) => name === 'UPDATE orders o').length).toBeLessThanOrEqual(1);
    for (const [i, event] of events.entries()) {
      if (event.type !== 'session.created') continue;
      const orderId = (event as { session: { id: string } }).session.id;
      const aloneId = (alone[i] as { session: { id: string } }).session.id;
      expect(await comparableOrder(orderId)).toEqual(await comparableOrder(aloneId));
    }
    expect(await comparable('group-a@example.com')).toEqual(await comparable('alone-a@example.com'));
    expect(await comparable('group-b@example.com')).toEqual(await comparable('alone-b@example.com'));
    expect(await comparable('group-a@example.com')).toMatchObject({ ordersCount: 2, paidOrdersCount: 1, spent: { EUR: '10.00' } });
    expect(await comparable('group-b@example.com')).toMatchObject({ ordersCount: 2, paidOrdersCount: 1, spent: { USD: '30.00' } });
    expect((await customerByEmail('group-a@example.com'))!.lastOrderAt).toEqual(new Date(events[1]!.occurredAt));
    expect((await customerByEmail('group-b@example.com'))!.lastOrderAt).toEqual(new Date(events[7]!.occurredAt));
    // Both customers in one statement (customer-saves.ts), each found or created by one statement for the group.
    expect(saves).toBe(1);
    expect(named.filter((name) => name === 'customers_insert_customers').length).toBe(1);
    expect(named.filter((name) => name === 'customers_insert_customer')).toEqual([]);
    // The group again (a redelivery after a crash before the ack): nothing is applied twice.
    await expect(
      applyCheckoutEventsTogether(
        deps,
        CONSUMER,
        events.map((event) => ({ msgId: event.id, event: parseCheckoutEvent(event) })),
      ),
    ).resolves.toBe(0);
    expect(await comparable('group-a@example.com')).toEqual(await comparable('alone-a@example.com'));
  });
});

describe('a group of new buyers (docs/adr/0066)', () => {
  const applyGroup = (events: { id: string }[]) =>
    applyCheckoutEventsTogether(
      deps,
      CONSUMER,
      events.map((event) => ({ msgId: event.id, event: parseCheckoutEvent(event) })),
    );

  it('finds or creates and locks their customers in one statement each, and counts each order once', async () => {
    const known = sessionCreated('buyer-known@example.com', '1.00');
    await apply(known);
    const events = [
      ...Array.from({ length: 6 }, (_, i) => sessionCreated(`buyer-${i}@example.com`, `${i + 2}.00`)),
      sessionCreated('buyer-known@example.com', '9.00'),
      sessionCreated('buyer-0@example.com', '4.00'),
    ];
    const queries = jest.spyOn(pg.Client.prototype, 'query');
    let named: (string | undefined)[];
    try {
      expect(await applyGroup(events)).toBe(8);
      named = queries.mock.calls.map(([query]) => (query as { name?: string }).name);
    } finally {
      queries.mockRestore();
    }
    expect(named.filter((name) => name === 'customers_insert_customers').length).toBe(1);
    expect(named.filter((name) => name === 'customers_insert_customer' || name === 'customers_lock_customer_by_email')).toEqual([]);
    expect(await customerByEmail('buyer-0@example.com')).toMatchObject({ ordersCount: 2, name: 'Ada Lovelace' });
    expect((await customerByEmail('buyer-0@example.com'))!.createdAt).toEqual(new Date(events[0]!.session.createdAt));
    expect(await customerByEmail('buyer-5@example.com')).toMatchObject({ ordersCount: 1 });
    expect(await customerByEmail('buyer-known@example.com')).toMatchObject({ ordersCount: 2 });
  });

  it('writes what a customer loses in the group, and what another gains, in the one statement', async () => {
    const s1 = { platform: 'shopify', storeId: 'lose-1', storeName: 'Kept', customerId: 'k-1' };
    const s2 = { platform: 'shopify', storeId: 'lose-2', storeName: 'Moved', customerId: 'k-2' };
    const kept = sessionCreated('loser@example.com', '5.00', 'EUR', { storeAccount: s1 });
    const moved = sessionCreated('loser@example.com', '7.00', 'USD', { storeAccount: s2 });
    for (const event of [kept, moved, paymentPaid(moved.session.id, 'lose', '7.00', 'USD')]) await apply(event);
    expect(await customerByEmail('loser@example.com')).toMatchObject({ storeAccounts: [s1, s2], spent: { USD: '7.00' } });
    expect(await applyGroup([sessionStarted(moved.session.id, 'gainer@example.com', 1), sessionCreated('bystander@example.com')])).toBe(2);
    const loser = await customerByEmail('loser@example.com');
    expect(loser).toMatchObject({ ordersCount: 1, paidOrdersCount: 0, storeAccounts: [s1] });
    expect(loser!.spent).toEqual({}); // toMatchObject would take any object for {}
    expect(await customerByEmail('gainer@example.com')).toMatchObject({
      ordersCount: 1,
      paidOrdersCount: 1,
      storeAccounts: [s2],
      spent: { USD: '7.00' },
    });
    expect(await customerByEmail('bystander@example.com')).toMatchObject({ ordersCount: 1, storeAccounts: [] });
  });

  it('creates no customer for a session created twice in the group: only the first creation counts', async () => {
    const first = sessionCreated('twice-first@example.com');
    const second = { ...first, id: `${first.id}.second`, session: { ...first.session, customerEmail: 'twice-second@example.com' } };
    const other = sessionCreated('twice-other@example.com');
    expect(await applyGroup([first, second, other])).toBe(3);
    expect(await customerByEmail('twice-first@example.com')).toMatchObject({ ordersCount: 1 });
    expect(await customerByEmail('twice-other@example.com')).toMatchObject({ ordersCount: 1 });
    expect(await customerByEmail('twice-second@example.com')).toBeUndefined();
  });
});

describe('a group whose new order was written before under another message id', () => {
  it('fails whole at the flush, leaving no trace; applied one by one, the first order is kept', async () => {
    const created = sessionCreated('twice@example.com', '12.00');
    expect(await apply(created)).toBe('applied');
    // A producer bug: the same session.created under another message id, in a group with a new order.
    const again = { ...created, id: `${created.id}.again`, session: { ...created.session, amount: '99.00' } };
    const other = sessionCreated('twice@example.com', '3.00');
    const group = [other, again].map((event) => ({ msgId: event.id, event: parseCheckoutEvent(event) }));
    await expect(applyCheckoutEventsTogether(deps, CONSUMER, group)).rejects.toBeInstanceOf(OrderAlreadyWrittenError);
    await expect(getOrder(deps, scope, other.session.id)).rejects.toMatchObject({ code: 'not_found' });
    expect(await customerByEmail('twice@example.com')).toMatchObject({ ordersCount: 1 });
    // What the consumer does after a failed group: each message alone.
    expect(await apply(other)).toBe('applied');
    expect(await apply(again)).toBe('applied');
    expect(await getOrder(deps, scope, created.session.id)).toMatchObject({ amount: '12.00' });
    expect(await customerByEmail('twice@example.com')).toMatchObject({ ordersCount: 2 });
  });
});

describe('race safety', () => {
  it('replicas creating orders of one new email at once make one customer with exact counts', async () => {
    const events = Array.from({ length: 12 }, () => sessionCreated('Race@Example.com'));
    // A second store = a second connection pool, like a second replica.
    const other = createCustomersDatabase(db.url);
    const replicas = [deps, { store: new CustomersStore(other), now: deps.now }];
    await Promise.all(events.map((e, i) => applyCheckoutEvent(replicas[i % 2]!, CONSUMER, message(e))));
    await other.close();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query<{ count: string }>("SELECT count(*) FROM customers WHERE email = 'race@example.com'");
    await client.end();
    expect(rows[0]!.count).toBe('1');
    expect(await customerByEmail('race@example.com')).toMatchObject({ ordersCount: 12, lastOrderAt: new Date(events.at(-1)!.occurredAt) });
  });
});

describe('orders that change customer', () => {
  it('a paid order without a customer brings its paid state and amounts when it gets one (rule 4)', async () => {
    const created = sessionCreated(null, '15.50', 'GBP', { name: 'Kept On The Order', phone: '+44 5' });
    await apply(created);
    await apply(paymentPaid(created.session.id, 'vrd_a', '15.50', 'GBP'));
    await apply(paymentPaid(created.session.id, 'vrd_b', '15.50', 'GBP'));
    await apply(sessionStarted(created.session.id, 'later@example.com', 1));
    expect(await customerByEmail('later@example.com')).toMatchObject({
      name: 'Kept On The Order',
      phone: '+44 5',
      ordersCount: 1,
      paidOrdersCount: 1,
      spent: { GBP: '31.00' },
    });
  });

  it('a paid order moving to another email takes exactly its counts along (rule 5), and a stale start changes nothing', async () => {
    const keep = sessionCreated('mover@example.com', '10.00', 'USD');
    const move = sessionCreated('mover@example.com', '25.00', 'USD');
    for (const e of [keep, move, paymentPaid(keep.session.id, 'v1', '10.00', 'USD'), paymentPaid(move.session.id, 'v2', '25.00', 'USD')]) {
      await apply(e);
    }
    await apply(sessionStarted(move.session.id, 'moved@example.com', 2));
    await apply(sessionStarted(move.session.id, 'mover@example.com', 1));
    const mover = await customerByEmail('mover@example.com');
    expect(mover).toMatchObject({
      ordersCount: 1,
      paidOrdersCount: 1,
      spent: { USD: '10.00' },
      lastOrderAt: new Date(keep.session.createdAt),
    });
    expect(await customerByEmail('moved@example.com')).toMatchObject({ ordersCount: 1, paidOrdersCount: 1, spent: { USD: '25.00' } });
    expect((await getCustomer(deps, scope, mover!.id)).id).toBe(mover!.id);
  });
});
