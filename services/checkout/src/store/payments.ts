import { GroupedReads, groupCommitEach } from '@hc/batching';
import { currentTraceparent, MARK_PROCESSED_SQL, rewriteOutboxPayloads, writeOutbox, type OutboxRow } from '@hc/events';
import type { Payment, PaymentFilters, Scope } from '../domain/payment.ts';
import {
  eventSubject,
  paymentEvent,
  paymentEventId,
  paymentEventPayload,
  type PaymentEventContext,
  type PaymentEventType,
} from '../domain/payment-events.ts';
import { erasedEventPayload } from '../domain/erasure.ts';
import type { OverviewRows } from '../domain/overview.ts';
import type { Transition } from '../domain/payment-transitions.ts';
import {
  sessionEventPayload,
  sessionEventSubject,
  sessionStartedEvent,
  type SessionCreatedEvent,
  type SessionEvent,
} from '../domain/session-events.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { CheckoutDatabase, CheckoutPrisma } from './prisma.ts';
import {
  findPayments,
  insertManyWithEvents,
  findPaymentsForBuyer,
  insertWithEvent,
  LOCKED_FIND_SQL,
  needsYouStatements,
  overviewStatements,
  updatePayment,
  ERASE_BUYER_SQL,
} from './payment-statements.ts';
import { listPaidPayments, listPayments, listPaymentsAfterId } from './payment-lists.ts';
import { toPayment, type PaymentRow as Row } from './payment-rows.ts';

type Tx = Prisma.TransactionClient;

export interface ChangeResult {
  readonly payment: Payment;
  readonly changed: boolean;
}

async function enqueueSessionEvent(tx: Tx, event: SessionEvent): Promise<void> {
  await writeOutbox(tx, [{ msgId: event.id, subject: sessionEventSubject(event), payload: sessionEventPayload(event) }]);
}

/**
 * Find statements running at once: the rest of the pool's connections stay free for writes, and a read
 * that arrives while these are busy joins the next group (docs/adr/0034).
 */
const FIND_STATEMENTS_AT_ONCE = 4;
/** The hosted page's reads by id alone take at most 2 more. */
const BUYER_STATEMENTS_AT_ONCE = 2;

const findKey = (request: { scope: Scope; id: string }): string =>
  `${request.id} ${request.scope.accountId} ${String(request.scope.livemode)}`;

/** The only code that knows the checkout tables. Every lookup requires the caller's scope. */
export class PaymentStore {
  private readonly prisma: CheckoutPrisma;
  /** The hot paths' prepared statements (docs/adr/0030): create, read by id, list. */
  private readonly pool: CheckoutDatabase['pool'];
  /** What the payment events it writes are built with (domain/payment-events.ts builds them). */
  private readonly eventContext: PaymentEventContext;

  /** Reads by id, several per statement under load (docs/adr/0034). */
  private readonly finds: GroupedReads<{ scope: Scope; id: string }, Payment>;
  /** The hosted page's reads by id alone (the payment names its own scope). */
  private readonly buyerFinds: GroupedReads<string, Payment>;
  /** Creates, committed in groups (docs/adr/0036); each answers whether its row was written. */
  private readonly inserts: (create: { payment: Payment; event: OutboxRow }) => Promise<boolean>;

  constructor(database: Pick<CheckoutDatabase, 'prisma' | 'pool'>, eventContext: PaymentEventContext) {
    this.prisma = database.prisma;
    this.pool = database.pool;
    this.eventContext = eventContext;
    this.finds = new GroupedReads({
      maxInFlight: FIND_STATEMENTS_AT_ONCE,
      maxGroupSize: 100,
      keyOf: findKey,
      readGroup: async (requests) => {
        const { rows } = await this.pool.query<Row>(findPayments(requests));
        return new Map(rows.map((row) => [findKey({ scope: row, id: row.id }), toPayment(row)]));
      },
    });
    // While one create statement runs, the creates that arrive wait and go together in the next. A
    // group that fails (a value PostgreSQL refuses) is retried one create at a time, so each caller
    // gets its own statement's answer, as without grouping. A taken id fails nothing: its create
    // writes no row and learns so (docs/adr/0062); the same id twice in a group is written once.
    this.inserts = groupCommitEach({
      many: async (creates) => {
        if (creates.length === 1) return [await this.insertOne(creates[0]!)];
        const firsts = new Map<string, (typeof creates)[number]>();
        for (const create of creates) if (!firsts.has(create.payment.id)) firsts.set(create.payment.id, create);
        const { rows } = await this.pool.query<{ id: string }>(insertManyWithEvents([...firsts.values()]));
        const written = new Set(rows.map((row) => row.id));
        return creates.map((create) => firsts.get(create.payment.id) === create && written.has(create.payment.id));
      },
      one: (create) => this.insertOne(create),
    });
    this.buyerFinds = new GroupedReads({
      maxInFlight: BUYER_STATEMENTS_AT_ONCE,
      maxGroupSize: 100,
      keyOf: (id) => id,
      readGroup: async (ids) => {
        const { rows } = await this.pool.query<Row>(findPaymentsForBuyer(ids));
        return new Map(rows.map((row) => [row.id, toPayment(row)]));
      },
    });
  }

  /**
   * Inserts a new payment together with its `session.created` event (outbox): one prepared statement,
   * one round trip, both rows or neither (payment-statements.ts). Concurrent creates share statements.
   */
  async insert(payment: Payment, created: SessionCreatedEvent): Promise<void> {
    if (!(await this.insertUnlessTaken(payment, created))) throw new Error(`checkout_sessions already holds a row with id ${payment.id}`);
  }

  /**
   * As insert, but a payment id already taken (a retried idempotent create's preset id) writes nothing
   * and answers false, in the same grouped statement as every other create: no read first.
   */
  async insertUnlessTaken(payment: Payment, created: SessionCreatedEvent): Promise<boolean> {
    return this.inserts({
      payment,
      event: {
        msgId: created.id,
        subject: sessionEventSubject(created),
        payload: sessionEventPayload(created),
        traceParent: currentTraceparent(),
      },
    });
  }

  private async insertOne({ payment, event }: { payment: Payment; event: OutboxRow }): Promise<boolean> {
    const { rowCount } = await this.pool.query(insertWithEvent(payment, event));
    return rowCount === 1;
  }

  /** A payment by id within the caller's scope; concurrent finds share statements (GroupedReads). */
  async find(scope: Scope, id: string): Promise<Payment | null> {
    return (await this.finds.read({ scope, id })) ?? null;
  }

  /**
   * A payment found by its id alone: the one unscoped read, for the hosted page, which names a payment
   * by its id (the buyer's only credential) and then acts in the payment's own scope (its account and
   * mode are in the row). One statement for scope and row; concurrent reads share statements.
   */
  async findForBuyer(id: string): Promise<Payment | null> {
    return (await this.buyerFinds.read(id)) ?? null;
  }

  /** The account and mode a payment belongs to, found by its id alone (findForBuyer's scope). */
  async scopeOf(id: string): Promise<Scope | null> {
    const payment = await this.findForBuyer(id);
    return payment ? { accountId: payment.accountId, livemode: payment.livemode } : null;
  }

  /**
   * Applies `decide` to the payment under a row lock, in one transaction with the event it publishes
   * (outbox). With `verdictId`, the change happens at most once for that verdict, whichever path
   * delivers it. Returns null when the payment is not the caller's.
   */
  async change(
    scope: Scope,
    id: string,
    now: Date,
    decide: (payment: Payment) => Transition | null,
    options: { verdictId?: string; eventCause?: string } = {},
  ): Promise<ChangeResult | null> {
    return this.prisma.$transaction(async (tx) => {
      // Lock and read in one statement: the row as it is under the lock is what `decide` judges.
      const [locked] = await tx.$queryRawUnsafe<Row[]>(LOCKED_FIND_SQL, id, scope.accountId, scope.livemode);
      if (!locked) return null;
      const current = toPayment(locked);
      if (options.verdictId !== undefined) {
        const { count } = await tx.appliedVerdict.createMany({
          data: [{ verdictId: options.verdictId, paymentId: id, appliedAt: now }],
          skipDuplicates: true,
        });
        if (count === 0) return { payment: current, changed: false };
      }
      const transition = decide(current);
      if (!transition) return { payment: current, changed: false };
      const update = updatePayment(id, transition.patch);
      const rows = update ? await tx.$queryRawUnsafe<Row[]>(update.text, ...update.values) : [];
      const updated = toPayment(rows[0] ?? locked);
      if (transition.event) await this.enqueue(tx, updated, transition.event, now, options.verdictId ?? options.eventCause);
      if (transition.emailChanged) await enqueueSessionEvent(tx, sessionStartedEvent(updated, now));
      return { payment: updated, changed: true };
    });
  }

  private async enqueue(tx: Tx, payment: Payment, type: PaymentEventType, now: Date, cause: string | undefined): Promise<void> {
    const msgId = paymentEventId(payment.id, type, cause);
    const event = paymentEvent(payment, type, msgId, now, this.eventContext);
    // The request's trace continues through the relay and every consumer of the event (ADR 0019);
    // the relay is woken at commit, without waiting for its next poll.
    await writeOutbox(tx, [{ msgId, subject: eventSubject(type, payment.id), payload: paymentEventPayload(event) }]);
  }

  /**
   * Erasure of a customer (customers.customer.erased): the buyer's email leaves the listed payments of
   * that account and mode (unless restarted since with another buyer's email, see `emailRevisions`),
   * and the outbox rows of their events (kept until purged) lose the buyer's details too. Applied once
   * per message, in the transaction that records it.
   */
  async eraseCustomerEmails(
    scope: Scope,
    paymentIds: readonly string[],
    emailRevisions: Readonly<Record<string, number>>,
    consumer: string,
    msgId: string,
  ): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      if ((await tx.$executeRawUnsafe(MARK_PROCESSED_SQL, consumer, msgId)) === 0) return 0;
      // Locked (in id order) before their revisions are read: a restart with another buyer's email
      // committing between the read and the update below would otherwise lose that buyer's email.
      await tx.$queryRaw`SELECT id FROM checkout_sessions WHERE id = ANY(${[...paymentIds]}) ORDER BY id FOR UPDATE`;
      const owned = await tx.checkoutSession.findMany({
        where: { id: { in: [...paymentIds] }, accountId: scope.accountId, livemode: scope.livemode },
        select: { id: true, customerRevision: true },
      });
      // A payment restarted with another email since the customers context saw it holds someone
      // else's email now: the erasure stops at the revision it knew.
      const ids = owned.filter((row) => row.customerRevision <= (emailRevisions[row.id] ?? row.customerRevision)).map((row) => row.id);
      if (ids.length === 0) return 0;
      await tx.$executeRawUnsafe(ERASE_BUYER_SQL, ids);
      // Event ids start with the payment id (`<pay>.<type>…`, docs/events.md).
      await rewriteOutboxPayloads(
        tx,
        ids.map((id) => `${id}.`),
        erasedEventPayload,
      );
      return ids.length;
    });
  }

  /** Ids of unpaid payments at or past expiry, oldest first (the sweeper expires them one by one). */
  async dueForExpiry(now: Date, limit: number, scope?: Scope): Promise<{ id: string; accountId: string; livemode: boolean }[]> {
    return this.prisma.checkoutSession.findMany({
      where: {
        status: { in: ['open', 'pending'] },
        expiresAt: { lte: now },
        ...(scope ? { accountId: scope.accountId, livemode: scope.livemode } : {}),
      },
      select: { id: true, accountId: true, livemode: true },
      orderBy: { expiresAt: 'asc' },
      take: limit,
    });
  }

  /**
   * Newest first by creation, ties broken by id; `after` is the previous page's last payment; with
   * `source`, only the payments of that source (payment links).
   */
  async list(scope: Scope, limit: number, after?: Payment, filters: PaymentFilters = {}): Promise<Payment[]> {
    const { rows } = await this.pool.query<Row>(listPayments(scope, limit, after, filters));
    return rows.map(toPayment);
  }

  /**
   * The page after the caller's payment `afterId`, its cursor read in the same statement; null when
   * `afterId` is no payment of the caller's in this mode (or of the filter's source).
   */
  async listAfterId(scope: Scope, limit: number, afterId: string, filters: PaymentFilters = {}): Promise<Payment[] | null> {
    const { rows } = await this.pool.query<Row>(listPaymentsAfterId(scope, limit, afterId, filters));
    if (rows.length === 0) return null;
    // The cursor's row with no page joined: NULLs, an empty page.
    return rows[0]!.id === null ? [] : rows.map(toPayment);
  }

  /** Paid payments of a period by their paid_at, oldest first, a page after `after` (the statement). */
  async listPaid(scope: Scope, limit: number, period: { from?: Date; until?: Date }, after?: Payment): Promise<Payment[]> {
    const { rows } = await this.pool.query<Row>(listPaidPayments(scope, limit, period, after));
    return rows.map(toPayment);
  }

  /** The Overview's grouped rows for a period and the held payments waiting for the merchant (docs/adr/0058). */
  async overview(scope: Scope, period: { start: Date; end: Date }, now: Date, needsYouLimit: number): Promise<OverviewRows> {
    const reads = overviewStatements(scope, period.start, period.end, now);
    const waiting = needsYouStatements(scope, needsYouLimit);
    // One after another: a dashboard read holds one pool connection, the rest stay free for writes.
    const counts = await this.pool.query<OverviewRows['counts'][number]>(reads.counts);
    const volumes = await this.pool.query<OverviewRows['volumes'][number]>(reads.volumes);
    const received = await this.pool.query<OverviewRows['received'][number]>(reads.received);
    const needsYou = await this.pool.query<Row>(waiting.list);
    const total = await this.pool.query<{ count: number }>(waiting.total);
    return {
      counts: counts.rows,
      volumes: volumes.rows,
      received: received.rows,
      needsYou: needsYou.rows.map(toPayment),
      needsYouTotal: total.rows[0]?.count ?? 0,
    };
  }
}
