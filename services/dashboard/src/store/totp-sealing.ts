import { currentKeyPrefix, resealTable, type ResealReport, type SecretBox, type SecretContext } from '@hc/secrets';
import type { DashboardPrisma } from './prisma.ts';

/** The two columns that hold a TOTP seed: the one in use and the one shown during set-up. */
export type TotpColumn = 'totp_secret' | 'totp_pending_secret';

/** A seed as otplib makes it (base32), stored in plaintext before encryption came. */
const PLAINTEXT_TOTP_SEED = /^[A-Z2-7]+=*$/;

/** The user and column a seed belongs to, bound to its sealed value: copied elsewhere, it does not open. */
function seedContext(userId: string, column: TotpColumn): SecretContext {
  return { table: 'dashboard_users', column, row: userId };
}

export type { ResealReport } from '@hc/secrets';

/**
 * The dashboard_users TOTP columns (docs/adr/0042): sealed on write, opened when a user is read,
 * re-encrypted at start and on command.
 */
export class TotpSealing {
  private readonly prisma: DashboardPrisma;
  private readonly box: SecretBox;

  constructor(prisma: DashboardPrisma, box: SecretBox) {
    this.prisma = prisma;
    this.box = box;
  }

  seal(userId: string, column: TotpColumn, seed: string): string {
    return this.box.seal(seed, seedContext(userId, column));
  }

  open(userId: string, column: TotpColumn, stored: string | null): string | null {
    return stored === null ? null : this.box.open(stored, seedContext(userId, column));
  }

  /** Seeds not sealed with the current key (plaintext, or an older key). */
  async countNotCurrent(prefix = currentKeyPrefix(this.box)): Promise<number> {
    const [row] = await this.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT (count(*) FILTER (WHERE left(totp_secret, ${prefix.length}) <> ${prefix}))
           + (count(*) FILTER (WHERE left(totp_pending_secret, ${prefix.length}) <> ${prefix})) AS n
      FROM dashboard_users`;
    return Number(row!.n);
  }

  /**
   * Re-encrypts, with the current key, every seed not sealed with it: plaintext ones from before
   * encryption (the data migration, run at every start) and ones under an older key after a key
   * rotation (docs/operations.md, "Encryption keys"). A row is replaced only while it still holds
   * what was read (a user finishing set-up meanwhile keeps their new seed). A seed that does not open
   * stops it with an error naming the user: the dashboard must not start then.
   */
  async reseal(batchSize = 500): Promise<ResealReport> {
    type SeedRow = { id: string; totp_secret: string | null; totp_pending_secret: string | null };
    return resealTable<SeedRow, string>(
      this.box,
      {
        page: (prefix, after = '', limit) => this.prisma.$queryRaw`
          SELECT id, totp_secret, totp_pending_secret FROM dashboard_users
          WHERE id > ${after}
            AND (left(totp_secret, ${prefix.length}) <> ${prefix} OR left(totp_pending_secret, ${prefix.length}) <> ${prefix})
          ORDER BY id LIMIT ${limit}`,
        cursorOf: (row) => row.id,
        reseal: async (row) => {
          const totpSecret = this.resealed(row.id, 'totp_secret', row.totp_secret);
          const totpPendingSecret = this.resealed(row.id, 'totp_pending_secret', row.totp_pending_secret);
          const updated = await this.prisma.dashboardUser.updateMany({
            where: { id: row.id, totpSecret: row.totp_secret, totpPendingSecret: row.totp_pending_secret },
            data: { totpSecret, totpPendingSecret },
          });
          return updated.count;
        },
        countNotCurrent: (prefix) => this.countNotCurrent(prefix),
      },
      batchSize,
    );
  }

  private resealed(userId: string, column: TotpColumn, stored: string | null): string | null {
    if (stored === null) return null;
    return this.box.resealed(stored, seedContext(userId, column), (value) => PLAINTEXT_TOTP_SEED.test(value)) ?? stored;
  }
}
