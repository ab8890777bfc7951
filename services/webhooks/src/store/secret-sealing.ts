import { currentKeyPrefix, resealTable, type ResealReport, type SecretBox, type SecretContext } from '@hc/secrets';
import type { Prisma } from './generated/prisma/client.ts';
import type { WebhooksPrisma } from './prisma.ts';

type Db = WebhooksPrisma | Prisma.TransactionClient;

/** A signing secret as the service makes it (domain/signing.ts), before encryption came. */
const PLAINTEXT_SIGNING_SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** The row a signing secret belongs to, bound to its sealed value: copied to another row, it does not open. */
function secretContext(endpointId: string, secretId: bigint): SecretContext {
  return { table: 'endpoint_secrets', column: 'secret', row: `${endpointId}/${secretId}` };
}

/** The id the next endpoint_secrets row takes, known before the insert so that its value can be bound to it. */
export async function nextSecretId(db: Db): Promise<bigint> {
  const [row] = await db.$queryRaw<{ id: bigint }[]>`SELECT nextval(pg_get_serial_sequence('endpoint_secrets', 'id')) AS id`;
  return row!.id;
}

export type { ResealReport } from '@hc/secrets';

/** The endpoint_secrets.secret column: sealed on write, opened to sign, re-encrypted at start and on command. */
export class SecretSealing {
  private readonly prisma: WebhooksPrisma;
  private readonly box: SecretBox;

  constructor(prisma: WebhooksPrisma, box: SecretBox) {
    this.prisma = prisma;
    this.box = box;
  }

  seal(secret: string, endpointId: string, secretId: bigint): string {
    return this.box.seal(secret, secretContext(endpointId, secretId));
  }

  open(stored: string, endpointId: string, secretId: bigint): string {
    return this.box.open(stored, secretContext(endpointId, secretId));
  }

  /** Rows whose value is not sealed with the current key (plaintext, or an older key). */
  async countNotCurrent(prefix = currentKeyPrefix(this.box)): Promise<number> {
    const [row] = await this.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM endpoint_secrets WHERE left(secret, ${prefix.length}) <> ${prefix}`;
    return Number(row!.n);
  }

  /**
   * Re-encrypts, with the current key, every signing secret not sealed with it: plaintext rows from
   * before encryption (the data migration, run at every start) and rows under an older key after a key
   * rotation (docs/operations.md, "Encryption keys"). A row is replaced only while it still holds what
   * was read, so replicas doing this at once are harmless. A row that does not open (its key removed
   * too early, or altered) stops it with an error naming the row: the service must not start then.
   */
  async reseal(batchSize = 500): Promise<ResealReport> {
    return resealTable<{ id: bigint; endpoint_id: string; secret: string }, bigint>(
      this.box,
      {
        page: (prefix, after = -1n, limit) => this.prisma.$queryRaw`
          SELECT id, endpoint_id, secret FROM endpoint_secrets
          WHERE id > ${after} AND left(secret, ${prefix.length}) <> ${prefix}
          ORDER BY id LIMIT ${limit}`,
        cursorOf: (row) => row.id,
        reseal: async (row) => {
          const sealed = this.box.resealed(row.secret, secretContext(row.endpoint_id, row.id), (v) => PLAINTEXT_SIGNING_SECRET.test(v));
          if (sealed === null) return 0;
          const updated = await this.prisma.endpointSecret.updateMany({
            where: { id: row.id, secret: row.secret },
            data: { secret: sealed },
          });
          return updated.count;
        },
        countNotCurrent: (prefix) => this.countNotCurrent(prefix),
      },
      batchSize,
    );
  }
}
