import type { Mode } from '../domain/api-key.ts';
import type { AccountStatus, ApiKeyRecord, MerchantAccount } from '../domain/merchant-account.ts';
import type { GatewayPrisma } from './prisma.ts';

interface AccountRow {
  id: string;
  name: string;
  status: string;
  payoutWallet: string | null;
  feeBps: number;
  createdAt: Date;
}

interface KeyRow {
  id: string;
  accountId: string;
  mode: string;
  hint: string;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}

function toAccount(row: AccountRow): MerchantAccount {
  return { ...row, status: row.status as AccountStatus };
}

function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.accountId,
    mode: row.mode as Mode,
    hint: row.hint,
    label: row.label,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
  };
}

/** The only code that knows the merchant_accounts and api_keys tables. */
export class MerchantStore {
  private readonly prisma: GatewayPrisma;

  constructor(prisma: GatewayPrisma) {
    this.prisma = prisma;
  }

  async insertAccount(account: MerchantAccount): Promise<void> {
    await this.prisma.merchantAccount.create({ data: { ...account } });
  }

  async findAccount(id: string): Promise<MerchantAccount | null> {
    const row = await this.prisma.merchantAccount.findUnique({ where: { id } });
    return row ? toAccount(row) : null;
  }

  async listAccounts(): Promise<MerchantAccount[]> {
    const rows = await this.prisma.merchantAccount.findMany({ orderBy: { id: 'asc' } });
    return rows.map(toAccount);
  }

  /**
   * Returns the updated account, or null when there is no such account. With `onlyIf`, the change is
   * made only while the account has that status (one conditional UPDATE, so a suspension that commits
   * first wins); otherwise nothing changes and the account is returned as it is, for the caller to refuse.
   */
  async updateAccount(
    id: string,
    change: { status?: AccountStatus; payoutWallet?: string | null },
    onlyIf?: { status: AccountStatus },
  ): Promise<MerchantAccount | null> {
    const { count } = await this.prisma.merchantAccount.updateMany({ where: { id, ...onlyIf }, data: change });
    return count === 1 || onlyIf ? this.findAccount(id) : null;
  }

  async insertKey(key: ApiKeyRecord, keyHash: string): Promise<void> {
    await this.prisma.apiKey.create({ data: { ...key, keyHash } });
  }

  /**
   * Inserts the key only while its account is active, in one transaction that holds the account row
   * (FOR SHARE): a suspension (an UPDATE of that row) waits for it or commits first, never slips
   * between the check and the insert. Answers the account as it was read, null when there is none.
   */
  async insertKeyIfActive(key: ApiKeyRecord, keyHash: string): Promise<MerchantAccount | null> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<AccountRow[]>`
        SELECT id, name, status, payout_wallet AS "payoutWallet", fee_bps AS "feeBps", created_at AS "createdAt"
          FROM merchant_accounts WHERE id = ${key.accountId} FOR SHARE`;
      const row = rows[0];
      if (!row) return null;
      if (row.status === 'active') await tx.apiKey.create({ data: { ...key, keyHash } });
      return toAccount(row);
    });
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.prisma.apiKey.findMany({ where: { accountId }, orderBy: { id: 'asc' } });
    return rows.map(toKey);
  }

  /** Marks a key revoked (idempotent: the first revocation time stays). Null when no such key. */
  async revokeKey(id: string, at: Date): Promise<ApiKeyRecord | null> {
    await this.prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
    const row = await this.prisma.apiKey.findUnique({ where: { id } });
    return row ? toKey(row) : null;
  }

  /** The key with this hash and its account, in one query: the hot path of every request. */
  async findKeyByHash(keyHash: string): Promise<{ key: ApiKeyRecord; account: MerchantAccount } | null> {
    const row = await this.prisma.apiKey.findUnique({ where: { keyHash }, include: { account: true } });
    return row ? { key: toKey(row), account: toAccount(row.account) } : null;
  }
}
