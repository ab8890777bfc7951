import { isRole, leavesAnOwner, type Role } from '../domain/roles.ts';
import type { TeamMember } from '../domain/team-member.ts';

export type { TeamMember };
import type { DashboardPrisma } from './prisma.ts';

/** Why a change of the team was not made. */
export type TeamRefusal = 'not_found' | 'last_owner';

/**
 * The users of one account as a team (docs/adr/0055). A change locks every user row of the account
 * first, so two owners demoting each other at once cannot leave the account without an owner.
 */
export class TeamStore {
  private readonly prisma: DashboardPrisma;

  constructor(prisma: DashboardPrisma) {
    this.prisma = prisma;
  }

  async members(accountId: string, now: Date): Promise<TeamMember[]> {
    const rows = await this.prisma.dashboardUser.findMany({
      where: { accountId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { setupTokens: { where: { usedAt: null, expiresAt: { gt: now } }, select: { expiresAt: true } } },
    });
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      role: isRole(row.role) ? row.role : 'viewer',
      createdAt: row.createdAt,
      passwordSet: row.passwordHash !== null,
      invitationOpen: row.passwordHash === null && row.setupTokens.length > 0,
      twoFactor: row.totpSecret !== null,
    }));
  }

  async member(accountId: string, userId: string, now: Date): Promise<TeamMember | null> {
    return (await this.members(accountId, now)).find((member) => member.id === userId) ?? null;
  }

  /**
   * Gives the user another role (null: removes the user, whose sessions go with it at once, by the
   * foreign key). The member as it was, or why not.
   */
  async change(accountId: string, userId: string, to: Role | null): Promise<TeamMember | TeamRefusal> {
    return this.prisma.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<{ id: string; role: string }[]>`
        SELECT id, role FROM dashboard_users WHERE account_id = ${accountId} ORDER BY id FOR UPDATE`;
      const target = locked.find((row) => row.id === userId);
      if (!target || !isRole(target.role)) return 'not_found';
      const owners = locked.filter((row) => row.role === 'owner').length;
      if (!leavesAnOwner(owners, { from: target.role, to })) return 'last_owner';
      const before = await tx.dashboardUser.findUniqueOrThrow({ where: { id: userId } });
      if (to === null) await tx.dashboardUser.delete({ where: { id: userId } });
      else await tx.dashboardUser.update({ where: { id: userId }, data: { role: to } });
      return {
        id: before.id,
        email: before.email,
        role: target.role,
        createdAt: before.createdAt,
        passwordSet: before.passwordHash !== null,
        // Read for its email and role only (the audit line); whether a link still works is not asked.
        invitationOpen: false,
        twoFactor: before.totpSecret !== null,
      };
    });
  }
}
