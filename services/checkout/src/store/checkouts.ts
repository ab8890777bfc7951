import { parseCurrency } from '@hc/money';
import { CHECKOUT_KINDS, type Checkout, type CheckoutKind, type Plan } from '../domain/checkout.ts';
import type { Scope } from '../domain/payment.ts';
import { Prisma } from './generated/prisma/client.ts';
import type { CheckoutPrisma } from './prisma.ts';

type Row = Prisma.CheckoutGetPayload<object>;

const money = (value: Prisma.Decimal | null): string | null => (value === null ? null : value.toFixed(2));

function toCheckout(row: Row): Checkout {
  const currency = parseCurrency(row.currency);
  if (!currency || !(CHECKOUT_KINDS as readonly string[]).includes(row.kind)) {
    throw new Error(`checkouts row ${row.id} holds an unknown currency or kind`);
  }
  return {
    id: row.id,
    accountId: row.accountId,
    livemode: row.livemode,
    kind: row.kind as CheckoutKind,
    description: row.description,
    currency,
    amount: money(row.amount),
    minAmount: money(row.minAmount),
    maxAmount: money(row.maxAmount),
    plans: (row.plans as Plan[] | null) ?? null,
    merchantName: row.merchantName,
    createdAt: row.createdAt,
    archivedAt: row.archivedAt,
  };
}

/** The only code that knows the checkouts table. Every merchant lookup requires the caller's scope. */
export class CheckoutStore {
  private readonly prisma: CheckoutPrisma;

  constructor(prisma: CheckoutPrisma) {
    this.prisma = prisma;
  }

  async insert(checkout: Checkout): Promise<void> {
    const { plans, ...fields } = checkout;
    await this.prisma.checkout.create({ data: { ...fields, plans: plans === null ? Prisma.DbNull : plans.map((p) => ({ ...p })) } });
  }

  async find(scope: Scope, id: string): Promise<Checkout | null> {
    const row = await this.prisma.checkout.findFirst({ where: { id, accountId: scope.accountId, livemode: scope.livemode } });
    return row ? toCheckout(row) : null;
  }

  /** By id alone, for the buyer's pages (the id is the buyer's only handle on it). */
  async findPublic(id: string): Promise<Checkout | null> {
    const row = await this.prisma.checkout.findUnique({ where: { id } });
    return row ? toCheckout(row) : null;
  }

  /** Newest first (ties by id), after `after` when given (the previous page's last). */
  async list(scope: Scope, limit: number, after?: Checkout): Promise<Checkout[]> {
    const rows = await this.prisma.checkout.findMany({
      where: {
        accountId: scope.accountId,
        livemode: scope.livemode,
        ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return rows.map(toCheckout);
  }

  /** Archives once (the first archive time stays); null when not the caller's. */
  async archive(scope: Scope, id: string, now: Date): Promise<Checkout | null> {
    await this.prisma.checkout.updateMany({
      where: { id, accountId: scope.accountId, livemode: scope.livemode, archivedAt: null },
      data: { archivedAt: now },
    });
    return this.find(scope, id);
  }
}
