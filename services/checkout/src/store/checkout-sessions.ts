import { parseCurrency } from '@hc/money';
import { SESSION_STATUSES, type CheckoutSession, type Scope, type SessionStatus } from '../domain/checkout-session.ts';
import { Prisma } from './generated/prisma/client.ts';
import type { CheckoutPrisma } from './prisma.ts';

type Row = Prisma.CheckoutSessionGetPayload<object>;

function toSession(row: Row): CheckoutSession {
  const currency = parseCurrency(row.currency);
  if (!currency || !(SESSION_STATUSES as readonly string[]).includes(row.status)) {
    throw new Error(`checkout_sessions row ${row.id} holds an unknown currency or status`);
  }
  return {
    id: row.id,
    accountId: row.accountId,
    livemode: row.livemode,
    status: row.status as SessionStatus,
    amount: row.amount.toFixed(2),
    currency,
    description: row.description,
    reference: row.reference,
    customerEmail: row.customerEmail,
    metadata: (row.metadata as Record<string, string> | null) ?? null,
    successUrl: row.successUrl,
    cancelUrl: row.cancelUrl,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    startedAt: row.startedAt,
  };
}

/** The only code that knows the checkout_sessions table. Every lookup requires the caller's scope. */
export class CheckoutSessionStore {
  private readonly prisma: CheckoutPrisma;

  constructor(prisma: CheckoutPrisma) {
    this.prisma = prisma;
  }

  async insert(session: CheckoutSession): Promise<void> {
    await this.prisma.checkoutSession.create({
      data: {
        id: session.id,
        accountId: session.accountId,
        livemode: session.livemode,
        status: session.status,
        amount: session.amount,
        currency: session.currency,
        description: session.description,
        reference: session.reference,
        customerEmail: session.customerEmail,
        metadata: session.metadata === null ? Prisma.DbNull : session.metadata,
        successUrl: session.successUrl,
        cancelUrl: session.cancelUrl,
        createdAt: session.createdAt,
        expiresAt: session.expiresAt,
        startedAt: session.startedAt,
      },
    });
  }

  async find(scope: Scope, id: string): Promise<CheckoutSession | null> {
    const row = await this.prisma.checkoutSession.findFirst({ where: { id, accountId: scope.accountId, livemode: scope.livemode } });
    return row ? toSession(row) : null;
  }

  /**
   * Moves an unpaid session past its expiry to `expired`. Conditional on the status in the database,
   * so concurrent readers and a concurrent payment never both win. Returns whether it changed.
   */
  async expireIfDue(scope: Scope, id: string, now: Date): Promise<boolean> {
    const { count } = await this.prisma.checkoutSession.updateMany({
      where: { id, accountId: scope.accountId, livemode: scope.livemode, status: { in: ['open', 'pending'] }, expiresAt: { lte: now } },
      data: { status: 'expired' },
    });
    return count === 1;
  }
}
