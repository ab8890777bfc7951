import type { NoticeKind, SecurityNotice, StartedUnpaid } from '../domain/security-notice.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { DashboardPrisma } from './prisma.ts';

type NoticeRow = Prisma.SecurityNoticeGetPayload<object>;

function noticeOf(row: NoticeRow): SecurityNotice {
  return {
    id: row.id.toString(),
    kind: row.kind as NoticeKind,
    actorEmail: row.actorEmail,
    oldValue: row.oldValue,
    newValue: row.newValue,
    affectedPaymentIds: row.affectedPaymentIds,
    affectedCount: row.affectedCount,
    createdAt: row.createdAt,
  };
}

/** A notice id as the store keys it, or null when the text is not one (a hand-made form post). */
function noticeKey(id: string): bigint | null {
  return /^[1-9][0-9]{0,17}$/.test(id) ? BigInt(id) : null;
}

/**
 * The security notices of accounts and who dismissed them (docs/adr/0038). Every read and write is
 * by the account of the signed-in user, so another account's notice is never shown nor dismissed.
 */
export class NoticeStore {
  private readonly prisma: DashboardPrisma;

  constructor(prisma: DashboardPrisma) {
    this.prisma = prisma;
  }

  async insertNotice(notice: {
    accountId: string;
    kind: NoticeKind;
    actorEmail: string;
    oldValue: string | null;
    newValue: string | null;
    affected: StartedUnpaid | null;
    at: Date;
  }): Promise<SecurityNotice> {
    const row = await this.prisma.securityNotice.create({
      data: {
        accountId: notice.accountId,
        kind: notice.kind,
        actorEmail: notice.actorEmail,
        oldValue: notice.oldValue,
        newValue: notice.newValue,
        affectedPaymentIds: [...(notice.affected?.ids ?? [])],
        affectedCount: notice.affected?.count ?? null,
        createdAt: notice.at,
      },
    });
    return noticeOf(row);
  }

  /** Withdraws a notice of a change that was refused (it never happened). */
  async deleteNotice(accountId: string, id: string): Promise<void> {
    const key = noticeKey(id);
    if (key !== null) await this.prisma.securityNotice.deleteMany({ where: { id: key, accountId } });
  }

  /** The account's notices since `since` that this user has not dismissed, newest first. */
  async undismissed(accountId: string, userId: string, since: Date, limit: number): Promise<SecurityNotice[]> {
    const rows = await this.prisma.securityNotice.findMany({
      where: { accountId, createdAt: { gte: since }, dismissals: { none: { userId } } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return rows.map(noticeOf);
  }

  /** Records that the user dismissed the notice; false when it is no notice of the user's account. */
  async dismiss(accountId: string, userId: string, id: string, at: Date): Promise<boolean> {
    const key = noticeKey(id);
    if (key === null) return false;
    const notice = await this.prisma.securityNotice.findFirst({ where: { id: key, accountId }, select: { id: true } });
    if (!notice) return false;
    await this.prisma.securityNoticeDismissal.createMany({
      data: [{ noticeId: key, userId, dismissedAt: at }],
      skipDuplicates: true,
    });
    return true;
  }

  /** Drops notices (and their dismissals) created before `before`. */
  async purge(before: Date): Promise<void> {
    await this.prisma.securityNotice.deleteMany({ where: { createdAt: { lt: before } } });
  }
}
