import { AUDIT_PAGE, type AuditCompletion, type AuditEntry, type AuditFilter, type NewAuditEntry } from '../domain/audit.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { DashboardPrisma } from './prisma.ts';

type Row = Prisma.AuditEntryGetPayload<object>;

function entryOf(row: Row): AuditEntry {
  return {
    id: row.id.toString(),
    accountId: row.accountId,
    at: row.at,
    actorKind: row.actorKind === 'operator' ? 'operator' : 'user',
    actor: row.actor,
    clientAddress: row.clientAddress,
    action: row.action,
    mode: row.mode === 'test' || row.mode === 'live' ? row.mode : null,
    target: row.target,
    outcome: row.outcome === 'refused' || row.outcome === 'started' ? row.outcome : 'done',
    status: row.status,
    before: row.beforeValue,
    after: row.afterValue,
  };
}

/** The row of a new line (also written by other stores inside their own transaction, docs/adr/0060). */
export function auditRowOf(entry: NewAuditEntry): Prisma.AuditEntryCreateInput {
  return {
    accountId: entry.accountId,
    at: entry.at,
    actorKind: entry.actorKind,
    actor: entry.actor,
    clientAddress: entry.clientAddress,
    action: entry.action,
    mode: entry.mode,
    target: entry.target,
    outcome: entry.outcome,
    status: entry.status,
    beforeValue: entry.before,
    afterValue: entry.after,
  };
}

/**
 * The audit log's table (docs/adr/0056): rows are only ever added (the database refuses UPDATE and
 * DELETE); every read names the account.
 */
export class AuditStore {
  private readonly prisma: DashboardPrisma;

  constructor(prisma: DashboardPrisma) {
    this.prisma = prisma;
  }

  async append(entry: NewAuditEntry): Promise<string> {
    const row = await this.prisma.auditEntry.create({ data: auditRowOf(entry), select: { id: true } });
    return row.id.toString();
  }

  /**
   * Completes a started line, once (the table's trigger refuses any other change). False when there
   * is no such started line: already completed, or another account's.
   */
  async complete(id: string, accountId: string, completion: AuditCompletion): Promise<boolean> {
    const { count } = await this.prisma.auditEntry.updateMany({
      where: { id: BigInt(id), outcome: 'started', accountId: { in: [accountId, ''] } },
      data: {
        outcome: completion.outcome,
        status: completion.status,
        completedAt: completion.at,
        ...(completion.accountId ? { accountId: completion.accountId } : {}),
        ...(completion.target !== undefined ? { target: completion.target } : {}),
        ...(completion.before !== undefined ? { beforeValue: completion.before } : {}),
        ...(completion.after !== undefined ? { afterValue: completion.after } : {}),
      },
    });
    return count === 1;
  }

  /** Newest first, one page (`limit`), narrowed by the filter. */
  async list(accountId: string, filter: AuditFilter, limit = AUDIT_PAGE): Promise<AuditEntry[]> {
    const rows = await this.prisma.auditEntry.findMany({
      where: {
        accountId,
        ...(filter.action ? { action: { startsWith: filter.action } } : {}),
        ...(filter.actor ? { actor: { contains: filter.actor, mode: 'insensitive' } } : {}),
        ...(filter.mode ? { mode: filter.mode } : {}),
        ...(filter.outcome ? { outcome: filter.outcome } : {}),
        ...(filter.before ? { id: { lt: BigInt(filter.before) } } : {}),
      },
      orderBy: { id: 'desc' },
      take: limit,
    });
    return rows.map(entryOf);
  }

  /** Every entry matching the filter, newest first, a page at a time (for the CSV export). */
  async *each(accountId: string, filter: AuditFilter): AsyncGenerator<AuditEntry> {
    let before = filter.before;
    for (;;) {
      const page = await this.list(accountId, { ...filter, before }, 500);
      yield* page;
      if (page.length < 500) return;
      before = page[page.length - 1]!.id;
    }
  }
}
