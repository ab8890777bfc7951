import type { SecretBox } from '@hc/secrets';
import type { DashboardSession, DashboardUser } from '../domain/dashboard-user.ts';
import { isRole } from '../domain/roles.ts';
import type { RecentFailures } from '../domain/sign-in-limits.ts';
import { Prisma } from './generated/prisma/client.ts';
import type { NewAuditEntry } from '../domain/audit.ts';
import { auditRowOf } from './audit-store.ts';
import type { DashboardPrisma } from './prisma.ts';
import { TotpSealing } from './totp-sealing.ts';

type UserRow = Prisma.DashboardUserGetPayload<object>;

/** A user as the use cases see it: the TOTP seeds decrypted (they are stored sealed, docs/adr/0042). */
function userOf(row: UserRow, totp: TotpSealing): DashboardUser {
  return {
    id: row.id,
    accountId: row.accountId,
    email: row.email,
    role: isRole(row.role) ? row.role : 'viewer',
    passwordHash: row.passwordHash,
    totpSecret: totp.open(row.id, 'totp_secret', row.totpSecret),
    totpPendingSecret: totp.open(row.id, 'totp_pending_secret', row.totpPendingSecret),
    totpLastStep: row.totpLastStep === null ? null : Number(row.totpLastStep),
    createdAt: row.createdAt,
  };
}

/** The only code that knows the dashboard's tables. TOTP seeds are sealed on write and opened on read. */
export class UserStore {
  private readonly prisma: DashboardPrisma;
  /** Sealing, opening and re-encrypting the TOTP seed columns. */
  readonly totp: TotpSealing;

  constructor(prisma: DashboardPrisma, box: SecretBox) {
    this.prisma = prisma;
    this.totp = new TotpSealing(prisma, box);
  }

  /**
   * Inserts a user (and its set-password link, if any); false when the account already has a user with
   * this email, or the user comes with a password and another user who set one holds the email.
   * `audit`: its line in the audit log, in the same transaction (docs/adr/0060): both or neither.
   */
  async insertUser(user: DashboardUser, setupLink?: { tokenHash: string; expiresAt: Date }, audit?: NewAuditEntry): Promise<boolean> {
    try {
      await this.prisma.$transaction(async (tx) => {
        await tx.dashboardUser.create({
          data: {
            id: user.id,
            accountId: user.accountId,
            email: user.email,
            role: user.role,
            passwordHash: user.passwordHash,
            createdAt: user.createdAt,
          },
        });
        if (setupLink)
          await tx.passwordSetupToken.create({ data: { tokenHash: setupLink.tokenHash, userId: user.id, expiresAt: setupLink.expiresAt } });
        if (audit) await tx.auditEntry.create({ data: auditRowOf(audit) });
      });
      return true;
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return false;
      throw error;
    }
  }

  /** The user who signs in with this email: the one who has set a password (invited users hold no address). */
  async userByEmail(email: string): Promise<DashboardUser | null> {
    const row = await this.prisma.dashboardUser.findFirst({ where: { email, passwordHash: { not: null } } });
    return row ? userOf(row, this.totp) : null;
  }

  async userById(id: string): Promise<DashboardUser | null> {
    const row = await this.prisma.dashboardUser.findUnique({ where: { id } });
    return row ? userOf(row, this.totp) : null;
  }

  /**
   * Uses a set-password link: sets the password and ends every session of the user, once. Null when
   * the link is unknown, used or expired; `address_in_use` (and the link left unused) when another
   * user has set a password with this email meanwhile: an address signs in to one account.
   */
  async usePasswordLink(tokenHash: string, passwordHash: string, now: Date): Promise<DashboardUser | null | 'address_in_use'> {
    try {
      return await this.spendPasswordLink(tokenHash, passwordHash, now);
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return 'address_in_use';
      throw error;
    }
  }

  private async spendPasswordLink(tokenHash: string, passwordHash: string, now: Date): Promise<DashboardUser | null> {
    return this.prisma.$transaction(async (tx) => {
      const used = await tx.passwordSetupToken.updateMany({
        where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      if (used.count !== 1) return null;
      const token = await tx.passwordSetupToken.findUniqueOrThrow({ where: { tokenHash } });
      await tx.dashboardSession.deleteMany({ where: { userId: token.userId } });
      return userOf(
        await tx.dashboardUser.update({ where: { id: token.userId }, data: { passwordHash, passwordChangedAt: now } }),
        this.totp,
      );
    });
  }

  /** The user of a set-password link that still works (unused, not expired). */
  async userForPasswordLink(tokenHash: string, now: Date): Promise<DashboardUser | null> {
    const token = await this.prisma.passwordSetupToken.findFirst({
      where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
      include: { user: true },
    });
    return token ? userOf(token.user, this.totp) : null;
  }

  async setPendingTotp(userId: string, secret: string | null): Promise<void> {
    const totpPendingSecret = secret === null ? null : this.totp.seal(userId, 'totp_pending_secret', secret);
    await this.prisma.dashboardUser.update({ where: { id: userId }, data: { totpPendingSecret } });
  }

  /** Turns two-factor on with the pending secret, recording the step that confirmed it. */
  async enableTotp(userId: string, secret: string, step: number): Promise<void> {
    await this.prisma.dashboardUser.update({
      where: { id: userId },
      data: { totpSecret: this.totp.seal(userId, 'totp_secret', secret), totpPendingSecret: null, totpLastStep: BigInt(step) },
    });
  }

  async disableTotp(userId: string): Promise<void> {
    await this.prisma.dashboardUser.update({
      where: { id: userId },
      data: { totpSecret: null, totpPendingSecret: null, totpLastStep: null },
    });
  }

  /** Records a code's step as used; false when it (or a later one) was used already (a replayed code). */
  async useTotpStep(userId: string, step: number): Promise<boolean> {
    const updated = await this.prisma.dashboardUser.updateMany({
      where: { id: userId, OR: [{ totpLastStep: null }, { totpLastStep: { lt: BigInt(step) } }] },
      data: { totpLastStep: BigInt(step) },
    });
    return updated.count === 1;
  }

  // Sessions.

  async insertSession(session: {
    idHash: string;
    userId: string;
    csrfToken: string;
    secondFactorDue: boolean;
    now: Date;
    expiresAt: Date;
  }): Promise<void> {
    await this.prisma.dashboardSession.create({
      data: {
        idHash: session.idHash,
        userId: session.userId,
        csrfToken: session.csrfToken,
        secondFactorDue: session.secondFactorDue,
        createdAt: session.now,
        lastSeenAt: session.now,
        expiresAt: session.expiresAt,
      },
    });
  }

  /** A live session and its user, touched (idle expiry moves on, up to `maxExpiry` of its start), and its flash taken. */
  async resumeSession(idHash: string, now: Date, idleMs: number, maxMs: number): Promise<DashboardSession | null> {
    return this.prisma.$transaction(async (tx) => {
      // The row is locked before it is read: otherwise a notice left between this read and the update
      // below (a form's redirect racing another request of the session) would be cleared unseen.
      await tx.$queryRaw`SELECT 1 FROM dashboard_sessions WHERE id_hash = ${idHash} FOR UPDATE`;
      const row = await tx.dashboardSession.findUnique({ where: { idHash }, include: { user: true } });
      if (!row || row.expiresAt <= now) return null;
      const latest = Math.min(now.getTime() + idleMs, row.createdAt.getTime() + maxMs);
      await tx.dashboardSession.update({ where: { idHash }, data: { lastSeenAt: now, expiresAt: new Date(latest), flash: null } });
      return {
        user: userOf(row.user, this.totp),
        csrfToken: row.csrfToken,
        secondFactorDue: row.secondFactorDue,
        flash: row.flash,
        expiresAt: new Date(latest),
      };
    });
  }

  /** The session is fully signed in now, under a new id and CSRF token (the old id opens nothing afterwards). */
  async secondFactorPassed(idHash: string, newIdHash: string, csrfToken: string): Promise<void> {
    await this.prisma.dashboardSession.update({ where: { idHash }, data: { idHash: newIdHash, csrfToken, secondFactorDue: false } });
  }

  async setFlash(idHash: string, flash: string): Promise<void> {
    await this.prisma.dashboardSession.updateMany({ where: { idHash }, data: { flash } });
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.prisma.dashboardSession.deleteMany({ where: { idHash } });
  }

  // Sign-in attempts.

  async recordAttempt(email: string, clientAddress: string, succeeded: boolean, at: Date): Promise<void> {
    await this.prisma.signInAttempt.create({ data: { email, clientAddress, succeeded, at } });
  }

  /**
   * Records an attempt as failed BEFORE its password or code is checked, then counts the failures
   * before it (its own row left out). Attempts sent at once therefore see each other: each counts
   * after its own row is committed, so the n-th to commit sees at least n - 1 others, and no more
   * than the limit of them can get past it to a real check. Counting first and recording after the
   * check would let any number of parallel guesses all count the same few failures. The caller then
   * keeps the row (a failure), marks it succeeded, or forgets it (a check that records nothing).
   */
  async beginAttempt(
    email: string,
    clientAddress: string,
    at: Date,
    since: Date,
  ): Promise<{ attemptId: bigint; failures: RecentFailures }> {
    const { id } = await this.prisma.signInAttempt.create({ data: { email, clientAddress, succeeded: false, at }, select: { id: true } });
    return { attemptId: id, failures: await this.recentFailures(email, clientAddress, since, id) };
  }

  async attemptSucceeded(attemptId: bigint): Promise<void> {
    await this.prisma.signInAttempt.updateMany({ where: { id: attemptId }, data: { succeeded: true } });
  }

  async forgetAttempt(attemptId: bigint): Promise<void> {
    await this.prisma.signInAttempt.deleteMany({ where: { id: attemptId } });
  }

  /**
   * Failed attempts since `since`: for the email (only those after its last successful sign-in, so a
   * user who mistyped a few times and then got in starts afresh) and from the address; `excluding` is
   * the caller's own attempt (beginAttempt).
   */
  async recentFailures(email: string, clientAddress: string, since: Date, excluding?: bigint): Promise<RecentFailures> {
    const lastSuccess = await this.prisma.signInAttempt.findFirst({
      where: { email, succeeded: true, at: { gte: since } },
      orderBy: { at: 'desc' },
      select: { at: true },
    });
    const emailSince = lastSuccess && lastSuccess.at > since ? lastSuccess.at : since;
    const [forEmail, fromAddress] = await Promise.all([
      this.prisma.signInAttempt.count({ where: { email, succeeded: false, at: { gt: emailSince }, id: { not: excluding } } }),
      this.prisma.signInAttempt.count({ where: { clientAddress, succeeded: false, at: { gte: since }, id: { not: excluding } } }),
    ]);
    return { forEmail, fromAddress };
  }

  /**
   * Drops expired sessions, links a day past their end and attempts older than a day, and the invited
   * users left without a link: an invitation expires with its link (docs/adr/0082).
   */
  async purge(now: Date): Promise<void> {
    const dayAgo = new Date(now.getTime() - 24 * 60 * 60 * 1000);
    await this.prisma.$transaction([
      this.prisma.dashboardSession.deleteMany({ where: { expiresAt: { lte: now } } }),
      this.prisma.passwordSetupToken.deleteMany({ where: { expiresAt: { lte: dayAgo } } }),
      this.prisma.dashboardUser.deleteMany({ where: { passwordHash: null, setupTokens: { none: {} } } }),
      this.prisma.signInAttempt.deleteMany({ where: { at: { lt: dayAgo } } }),
    ]);
  }
}
