import type { AccountsPrisma } from './prisma.ts';

/** One change to a key (by its hash) or to an account (by its id). */
export interface AccountChange {
  readonly position: bigint;
  readonly keyHash: string | null;
  readonly accountId: string | null;
}

/**
 * Reads account_changes, the feed the gateways' key caches pull (docs/adr/0085). Nothing here writes
 * it: the tables' triggers do, in the transaction of each change, taking positions in commit order.
 */
export class ChangeFeed {
  private readonly prisma: AccountsPrisma;

  constructor(prisma: AccountsPrisma) {
    this.prisma = prisma;
  }

  /** The newest position (0 before any change): every change up to it is visible to this read. */
  async position(): Promise<bigint> {
    const newest = await this.prisma.accountChange.findFirst({ orderBy: { position: 'desc' }, select: { position: true } });
    return newest?.position ?? 0n;
  }

  /** Up to `limit` changes after `after`, oldest first. */
  async after(after: bigint, limit: number): Promise<AccountChange[]> {
    return this.prisma.accountChange.findMany({
      where: { position: { gt: after } },
      orderBy: { position: 'asc' },
      take: limit,
      select: { position: true, keyHash: true, accountId: true },
    });
  }
}
