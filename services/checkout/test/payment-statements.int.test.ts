// Risk covered: checkout's hot paths moved off Prisma (docs/adr/0030). The one-statement create must
// commit the session and its outbox row together or neither, write exactly the rows Prisma wrote, and
// wake the outbox relay only on commit; the prepared reads must keep account and mode isolation exact
// and map rows exactly as Prisma's reads do.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { badValueError } from '@hc/db';
import { OUTBOX_CHANNEL, OUTBOX_NOTIFY_SQL } from '@hc/events';
import { UNSTARTED, type Payment } from '../src/domain/payment.ts';
import { NO_CUSTOMER_DETAILS } from '../src/domain/order-customer.ts';
import { sessionCreatedEvent, sessionEventPayload, sessionEventSubject } from '../src/domain/session-events.ts';
import type { PaymentStore } from '../src/store/payments.ts';
import type { CheckoutDatabase } from '../src/store/prisma.ts';
import { listStatementName } from '../src/store/payment-lists.ts';
import { PAYMENT_COLUMN_NAMES, RETIRED_PAYMENT_COLUMNS } from '../src/store/payment-statements.ts';
import { startPaymentStore } from './support/payment-store.ts';

let url: string;
let database: CheckoutDatabase;
let store: PaymentStore;
let stop: () => Promise<void>;
const scope = { accountId: 'acct_statements', livemode: false };
let sequence = 0;

beforeAll(async () => {
  ({ url, database, store, stop } = await startPaymentStore());
});

afterAll(() => stop());

/** A session with every column set (metadata keys out of alphabetical order, decimals at their scale). */
function payment(overrides: Partial<Payment> = {}): Payment {
  sequence += 1;
  const createdAt = new Date(Date.UTC(2026, 10, 23, 5, 0, 0, sequence));
  return {
    ...UNSTARTED,
    id: `pay_statements${String(sequence).padStart(4, '0')}`,
    ...scope,
    status: 'open',
    amount: '1234.50',
    currency: 'EUR',
    description: 'Blue mug',
    reference: 'ORD-1',
    customerEmail: 'ann@example.com',
    metadata: { zeta: '1', alpha: 'two' },
    successUrl: 'https://shop.example/ok',
    cancelUrl: 'https://shop.example/cancel',
    locale: 'pt-BR',
    pageLocale: 'de',
    createdAt,
    expiresAt: new Date(createdAt.getTime() + 3_600_000),
    merchantName: 'Mug shop',
    usdValue: '1333.26',
    settlement: { coin: 'BTC', valueCoin: '0.012345', merchantReceived: '0.012000', txidIn: 'in', txidOut: 'out' },
    ...overrides,
  };
}

const created = (s: Payment) => sessionCreatedEvent(s, NO_CUSTOMER_DETAILS);

async function rows(sql: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  return (await database.pool.query(sql, values)).rows as Record<string, unknown>[];
}

describe('the one-statement create', () => {
  it('commits the session and its outbox row together, the event as the contract builds it', async () => {
    const s = payment();
    await store.insert(s, created(s));
    expect(await store.find(scope, s.id)).toEqual(s);
    const outbox = await rows('SELECT msg_id, subject, payload, published_at FROM outbox_messages WHERE msg_id LIKE $1', [`${s.id}.%`]);
    expect(outbox).toEqual([
      {
        msg_id: `${s.id}.session.created`,
        subject: sessionEventSubject(created(s)),
        payload: sessionEventPayload(created(s)),
        published_at: null,
      },
    ]);
  });

  it('writes exactly the rows the Prisma transaction wrote (same columns, same values, json key order kept)', async () => {
    const viaStatement = payment();
    const viaPrisma = payment({ createdAt: viaStatement.createdAt, expiresAt: viaStatement.expiresAt });
    await store.insert(viaStatement, created(viaStatement));
    // What the store's insert did before (docs/adr/0030).
    const { settlement, metadata, ...fields } = viaPrisma;
    const event = created(viaPrisma);
    await database.prisma.$transaction(async (tx) => {
      await tx.checkoutSession.create({ data: { ...fields, ...settlement, metadata: metadata ?? undefined } });
      await tx.outboxMessage.createMany({
        data: [{ msgId: event.id, subject: sessionEventSubject(event), payload: sessionEventPayload(event), traceParent: null }],
      });
      await tx.$executeRawUnsafe(OUTBOX_NOTIFY_SQL);
    });
    const [a, b] = await rows(
      `SELECT (to_jsonb(s) - 'id')::text AS session, s.metadata::text AS metadata, (to_jsonb(o) - 'seq' - 'msg_id' - 'subject' - 'created_at')::text AS outbox
       FROM checkout_sessions s JOIN outbox_messages o ON o.msg_id = s.id || '.session.created' WHERE s.id = ANY($1) ORDER BY s.id`,
      [[viaStatement.id, viaPrisma.id]],
    );
    expect(a!.session).toBe(b!.session);
    expect(a!.metadata).toBe('{"zeta":"1","alpha":"two"}');
    expect(a!.outbox).toBe(String(b!.outbox).replaceAll(viaPrisma.id, viaStatement.id));
  });

  it('commits concurrent creates in groups, writing exactly the rows a create alone writes', async () => {
    const alone = payment();
    await store.insert(alone, created(alone));
    const together = Array.from({ length: 30 }, (_, i) => ({ ...alone, id: `${alone.id}g${String(i).padStart(2, '0')}` }));
    const queries = jest.spyOn(database.pool, 'query'); // counts the statements; each still runs
    try {
      await Promise.all(together.map((s) => store.insert(s, created(s))));
      expect(queries.mock.calls.length).toBeLessThan(together.length / 2);
    } finally {
      queries.mockRestore();
    }
    const written = await rows(
      `SELECT s.id, (to_jsonb(s) - 'id')::text AS session, s.metadata::text AS metadata,
              (to_jsonb(o) - 'seq' - 'msg_id' - 'subject' - 'created_at')::text AS outbox
         FROM checkout_sessions s JOIN outbox_messages o ON o.msg_id = s.id || '.session.created'
        WHERE s.id LIKE $1 ORDER BY o.seq`,
      [`${alone.id}%`],
    );
    expect(written.map((r) => r['id'])).toEqual([alone.id, ...together.map((s) => s.id)]);
    for (const row of written.slice(1)) {
      expect(row['session']).toBe(written[0]!['session']);
      expect(row['metadata']).toBe('{"zeta":"1","alpha":"two"}');
      expect(row['outbox']).toBe(String(written[0]!['outbox']).replaceAll(alone.id, String(row['id'])));
    }
    for (const s of together) expect(await store.find(scope, s.id)).toEqual(s);
  });

  it('in a group, a taken id or a refused value fails that create alone: the others commit, it leaves nothing', async () => {
    // A refused value fails the group's statement, which is then retried one create at a time; a taken
    // id fails only its own create (ON CONFLICT (id) DO NOTHING, docs/adr/0062).
    const taken = payment();
    await store.insert(taken, created(taken));
    const good = [payment(), payment(), payment()];
    const refused = payment({ description: 'Blue\u0000mug' });
    const again = { ...taken, description: 'Second' };
    const outcomes = await Promise.all(
      [good[0]!, refused, good[1]!, again, good[2]!].map((s) =>
        store.insert(s, created(s)).then(
          () => 'ok',
          (e: unknown) => e,
        ),
      ),
    );
    expect(outcomes[0]).toBe('ok');
    expect(badValueError(outcomes[1])?.code).toBe('invalid_request');
    expect(outcomes[2]).toBe('ok');
    expect(String(outcomes[3])).toMatch(/already holds a row with id/);
    expect(outcomes[4]).toBe('ok');
    for (const s of good) expect(await store.find(scope, s.id)).toEqual(s);
    expect(await store.find(scope, refused.id)).toBeNull();
    expect(await rows('SELECT 1 FROM outbox_messages WHERE msg_id LIKE $1', [`${refused.id}.%`])).toEqual([]);
    expect((await store.find(scope, taken.id))?.description).toBe('Blue mug');
    expect(await rows('SELECT 1 FROM outbox_messages WHERE msg_id LIKE $1', [`${taken.id}.%`])).toHaveLength(1);
  });

  it('a value PostgreSQL refuses leaves neither the session nor an outbox row, and is a bad-value error', async () => {
    const s = payment({ description: 'Blue\u0000mug' });
    const error = await store.insert(s, created(s)).catch((e: unknown) => e);
    expect(badValueError(error)?.code).toBe('invalid_request');
    expect(await store.find(scope, s.id)).toBeNull();
    expect(await rows('SELECT 1 FROM outbox_messages WHERE msg_id LIKE $1', [`${s.id}.%`])).toEqual([]);
  });

  it('an event the outbox refuses (a NUL, which jsonb cannot hold) leaves no session either', async () => {
    const s = payment();
    const event = sessionCreatedEvent(s, { ...NO_CUSTOMER_DETAILS, name: 'Ann\u0000' });
    const error = await store.insert(s, event).catch((e: unknown) => e);
    expect(badValueError(error)?.code).toBe('invalid_request');
    expect(await rows('SELECT 1 FROM checkout_sessions WHERE id = $1', [s.id])).toEqual([]);
  });

  it('an id already taken fails insert, and insertUnlessTaken answers false; neither adds a row', async () => {
    const first = payment();
    await store.insert(first, created(first));
    const again = { ...first, description: 'Second' };
    await expect(store.insert(again, created(again))).rejects.toThrow(/already holds a row with id/);
    expect(await store.insertUnlessTaken(again, created(again))).toBe(false);
    expect((await store.find(scope, first.id))?.description).toBe('Blue mug');
    expect(await rows('SELECT 1 FROM outbox_messages WHERE msg_id LIKE $1', [`${first.id}.%`])).toHaveLength(1);
  });

  it('preset-id creates share group statements: a taken id, or the same id twice in a group, is written once', async () => {
    const taken = payment();
    await store.insert(taken, created(taken));
    const fresh = Array.from({ length: 8 }, () => payment());
    const twice = payment();
    const batch = [...fresh.slice(0, 4), { ...taken, description: 'Retry' }, twice, { ...twice, description: 'Twin' }, ...fresh.slice(4)];
    const queries = jest.spyOn(database.pool, 'query');
    let written: boolean[];
    try {
      written = await Promise.all(batch.map((s) => store.insertUnlessTaken(s, created(s))));
      // No read before a create, no statement per create: the 11 creates went out in a few groups.
      expect(queries.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      queries.mockRestore();
    }
    expect(written).toEqual([true, true, true, true, false, true, false, true, true, true, true]);
    for (const s of [...fresh, twice]) expect(await store.find(scope, s.id)).toEqual(s);
    expect((await store.find(scope, taken.id))?.description).toBe('Blue mug');
    const outbox = await rows('SELECT msg_id FROM outbox_messages WHERE msg_id = ANY($1) ORDER BY seq', [
      batch.map((s) => `${s.id}.session.created`),
    ]);
    expect(outbox.map((r) => r['msg_id'])).toEqual(
      [taken, ...fresh.slice(0, 4), twice, ...fresh.slice(4)].map((s) => `${s.id}.session.created`),
    );
  });

  it('wakes the outbox relay at commit, and a failed create does not', async () => {
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    const notices: string[] = [];
    const next = new Promise<void>((resolve) => listener.on('notification', (n) => (notices.push(n.channel), resolve())));
    await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
    try {
      const failed = payment({ reference: 'ORD\u0000' });
      await expect(store.insert(failed, created(failed))).rejects.toBeDefined();
      const s = payment();
      await store.insert(s, created(s));
      await next;
      // Notices arrive in commit order: had the failed create notified, its notice would be first.
      expect(notices).toEqual([OUTBOX_CHANNEL]);
    } finally {
      await listener.end();
    }
  });

  it('names every column of checkout_sessions (a new column must be added to payment-statements.ts)', async () => {
    const columns = await rows(`SELECT column_name FROM information_schema.columns WHERE table_name = 'checkout_sessions'`);
    expect(columns.map((c) => c.column_name).sort()).toEqual([...PAYMENT_COLUMN_NAMES, ...RETIRED_PAYMENT_COLUMNS].sort());
  });
});

describe('the prepared reads', () => {
  const other = { accountId: 'acct_other', livemode: false };
  const live = { accountId: scope.accountId, livemode: true };

  it("find and list keep account and mode isolation exact; scopeOf names the session's own", async () => {
    const s = payment();
    await store.insert(s, created(s));
    expect(await store.find(other, s.id)).toBeNull();
    expect(await store.find(live, s.id)).toBeNull();
    expect(await store.list(other, 100)).toEqual([]);
    expect(await store.list(live, 100)).toEqual([]);
    expect(await store.scopeOf(s.id)).toEqual(scope);
    expect(await store.scopeOf('pay_nosuchsession')).toBeNull();
  });

  it('answer concurrent finds and scope lookups in shared statements, each with its own session and never one of another scope', async () => {
    const ours = [payment(), payment(), payment()];
    const theirs = payment({ accountId: other.accountId });
    const inLive = payment({ livemode: true });
    for (const s of [...ours, theirs, inLive]) await store.insert(s, created(s));
    // 60 reads at once: more than the statements allowed in flight, so most share a statement, and
    // the same id is asked in several scopes within one group.
    const asks = Array.from({ length: 60 }, (_, i) => {
      const pick = [
        { scope, id: ours[i % 3]!.id, expected: ours[i % 3]! },
        { scope, id: theirs.id, expected: null },
        { scope: other, id: theirs.id, expected: theirs },
        { scope: other, id: ours[0]!.id, expected: null },
        { scope, id: inLive.id, expected: null },
        { scope: live, id: inLive.id, expected: inLive },
        { scope: live, id: ours[1]!.id, expected: null },
        { scope, id: 'pay_nosuchsession', expected: null },
      ];
      return pick[i % pick.length]!;
    });
    const queries = jest.spyOn(database.pool, 'query'); // counts the statements; each still runs
    try {
      const answers = await Promise.all(asks.map((ask) => store.find(ask.scope, ask.id)));
      expect(answers).toEqual(asks.map((ask) => ask.expected));
      // The hosted page's unscoped lookup, grouped the same way: each id gets its own session's scope.
      const ids = [ours[0]!.id, theirs.id, inLive.id, 'pay_nosuchsession', ours[1]!.id, theirs.id];
      expect(await Promise.all(ids.map((id) => store.scopeOf(id)))).toEqual([scope, other, live, null, scope, other]);
      // Grouped: at most 4 finds (2 scope lookups) run at once; the reads waiting meanwhile share the next.
      expect(queries.mock.calls.length).toBeLessThanOrEqual(8 + 4);
    } finally {
      queries.mockRestore();
    }
  });

  it('map a row exactly as the Prisma read under a row lock does', async () => {
    const s = payment({
      metadata: null,
      usdValue: null,
      settlement: { coin: null, valueCoin: null, merchantReceived: null, txidIn: null, txidOut: null },
    });
    await store.insert(s, created(s));
    const viaPrisma = await store.change(scope, s.id, new Date(), () => null);
    expect(await store.find(scope, s.id)).toEqual(viaPrisma?.payment);
    expect(viaPrisma?.payment).toEqual(s);
  });

  it('list pages newest first, ties broken by id, by source, from a cursor', async () => {
    const mine = { accountId: 'acct_listing', livemode: false };
    const at = new Date(Date.UTC(2026, 10, 23, 6));
    const made = ['pay_listing0001', 'pay_listing0002', 'pay_listing0003'].map((id, i) =>
      payment({ ...mine, id, createdAt: i === 0 ? new Date(at.getTime() - 1) : at, source: i === 1 ? 'payment_link' : 'api' }),
    );
    for (const s of made) await store.insert(s, created(s));
    const ids = (list: Payment[]) => list.map((p) => p.id);
    expect(ids(await store.list(mine, 10))).toEqual(['pay_listing0003', 'pay_listing0002', 'pay_listing0001']);
    expect(ids(await store.list(mine, 10, made[2]))).toEqual(['pay_listing0002', 'pay_listing0001']);
    expect(ids(await store.list(mine, 1, made[1]))).toEqual(['pay_listing0001']);
    expect(ids(await store.list(mine, 10, undefined, { source: 'api' }))).toEqual(['pay_listing0003', 'pay_listing0001']);
    expect(ids(await store.list(mine, 10, made[2], { source: 'api' }))).toEqual(['pay_listing0001']);
  });

  it('list narrows to a status, an exact reference and an email, alone or together, in this scope only', async () => {
    const mine = { accountId: 'acct_filters', livemode: false };
    const at = new Date(Date.UTC(2026, 10, 23, 7));
    const rows = [
      payment({ ...mine, id: 'pay_filters0001', createdAt: at, reference: 'ORD-1', customerEmail: 'ann@buyer.example' }),
      payment({ ...mine, id: 'pay_filters0002', createdAt: at, reference: 'ORD-2', customerEmail: 'ann@buyer.example', status: 'paid' }),
      payment({ ...mine, id: 'pay_filters0003', createdAt: at, reference: 'ORD-1', customerEmail: 'bob@buyer.example', status: 'paid' }),
      // The same reference in Live mode: never in a Test listing.
      payment({ accountId: 'acct_filters', livemode: true, id: 'pay_filters0004', createdAt: at, reference: 'ORD-1' }),
    ];
    for (const s of rows) await store.insert(s, created(s));
    const ids = (list: Payment[]) => list.map((p) => p.id);
    expect(ids(await store.list(mine, 10, undefined, { status: 'paid' }))).toEqual(['pay_filters0003', 'pay_filters0002']);
    expect(ids(await store.list(mine, 10, undefined, { reference: 'ORD-1' }))).toEqual(['pay_filters0003', 'pay_filters0001']);
    expect(ids(await store.list(mine, 10, undefined, { customerEmail: 'ann@buyer.example' }))).toEqual([
      'pay_filters0002',
      'pay_filters0001',
    ]);
    expect(ids(await store.list(mine, 10, undefined, { customerEmail: 'ann@buyer.example', status: 'paid' }))).toEqual(['pay_filters0002']);
    expect(ids(await store.list(mine, 10, rows[2], { reference: 'ORD-1' }))).toEqual(['pay_filters0001']);
    expect(await store.list(mine, 10, undefined, { reference: 'ORD-9' })).toEqual([]);
  });

  it("names every list shape apart within PostgreSQL's 63 characters, so long shapes share a connection", async () => {
    const keys = ['source', 'status', 'reference', 'customerEmail', 'createdGte', 'createdLt'];
    const names = new Set<string>();
    for (let mask = 0; mask < 1 << keys.length; mask += 1) {
      const shape = keys.filter((_, bit) => mask & (1 << bit));
      for (const withCursor of [false, true]) names.add(listStatementName(shape, withCursor).slice(0, 63));
    }
    expect(names.size).toBe(2 << keys.length);
    // Spelled out, these two were 70+ characters that PostgreSQL cut to the same name.
    const mine = { accountId: 'acct_long_shapes', livemode: false };
    const every = { source: 'api' as const, status: 'paid' as const, reference: 'R', customerEmail: 'x@buyer.example' };
    for (let round = 0; round < 5; round += 1) {
      expect(await store.list(mine, 5, undefined, { ...every, createdGte: new Date(0) })).toEqual([]);
      expect(await store.list(mine, 5, undefined, { ...every, createdGte: new Date(0), createdLt: new Date() })).toEqual([]);
      expect(await store.list(mine, 5, undefined, { ...every, createdLt: new Date() })).toEqual([]);
    }
  });
});
