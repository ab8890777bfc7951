import { writeOutbox } from '@hc/events';
import type { Mode } from '../domain/api-key.ts';
import { accountUpdatedEvent, apiKeyRevokedEvent } from '../domain/account-events.ts';
import type { AccountStatus, ApiKeyRecord, MerchantAccount } from '../domain/merchant-account.ts';
import type { AccountsPrisma } from './prisma.ts';

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

/**
 * Prisma's defaults (2 s to get a connection, 5 s to finish) fail a write on a loaded machine that would
 * have committed a moment later; each transaction here is one or two statements.
 */
const TRANSACTION = { maxWait: 10_000, timeout: 15_000 };

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

/** What a change to an account or a key waits for before it is answered (docs/adr/0108). */
export interface KeyCachesCaughtUp {
  /** Resolves once every gateway's key cache holding a lease has applied every change committed so far. */
  caughtUp(): Promise<void>;
}

/** For a store no gateway reads (a test of the store alone): nothing to wait for. */
export const NO_KEY_CACHES: KeyCachesCaughtUp = { caughtUp: async () => undefined };

/**
 * The service's code that writes the merchant_accounts and api_keys tables, through Prisma alone (the
 * other writer is the one-time data move from the gateway, store/gateway-import.ts, run by the
 * migration before any gateway reads accounts). Each
 * change is one transaction with its event in the outbox (docs/adr/0085); the change feed's rows are
 * written by the tables' triggers in that same transaction. A change that fires them returns only once
 * the gateways' key caches have applied it (docs/adr/0108), so its answer means "in effect everywhere".
 */
export class MerchantStore {
  private readonly prisma: AccountsPrisma;
  private readonly keyCaches: KeyCachesCaughtUp;

  constructor(prisma: AccountsPrisma, keyCaches: KeyCachesCaughtUp) {
    this.prisma = prisma;
    this.keyCaches = keyCaches;
  }

  async insertAccount(account: MerchantAccount): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.merchantAccount.create({ data: { ...account } });
      await writeOutbox(tx, [accountUpdatedEvent(account, account.createdAt)]);
    }, TRANSACTION);
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
    at: Date,
    onlyIf?: { status: AccountStatus },
  ): Promise<MerchantAccount | null> {
    const account = await this.prisma.$transaction(async (tx) => {
      const { count } = await tx.merchantAccount.updateMany({ where: { id, ...onlyIf }, data: change });
      if (count === 0 && !onlyIf) return null;
      const row = await tx.merchantAccount.findUnique({ where: { id } });
      const found = row ? toAccount(row) : null;
      if (count === 1 && found) await writeOutbox(tx, [accountUpdatedEvent(found, at)]);
      return found;
    }, TRANSACTION);
    // A refusal (onlyIf matched nothing) waits too: it may report a suspension whose answer is on its way.
    if (account) await this.keyCaches.caughtUp();
    return account;
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
    }, TRANSACTION);
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.prisma.apiKey.findMany({ where: { accountId }, orderBy: { id: 'asc' } });
    return rows.map(toKey);
  }

  /** Marks a key revoked (idempotent: the first revocation time stays, one event). Null when no such key. */
  async revokeKey(id: string, at: Date): Promise<ApiKeyRecord | null> {
    const key = await this.prisma.$transaction(async (tx) => {
      const { count } = await tx.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
      const row = await tx.apiKey.findUnique({ where: { id } });
      const key = row ? toKey(row) : null;
      if (count === 1 && key) await writeOutbox(tx, [apiKeyRevokedEvent(key, at)]);
      return key;
    }, TRANSACTION);
    // A second revocation changed nothing, but the first one's answer may still be on its way: wait too.
    if (key) await this.keyCaches.caughtUp();
    return key;
  }

  /** The key with this hash and its account, in one query: what the gateway authenticates with. */
  async findKeyByHash(keyHash: string): Promise<{ key: ApiKeyRecord; account: MerchantAccount } | null> {
    const row = await this.prisma.apiKey.findUnique({ where: { keyHash }, include: { account: true } });
    return row ? { key: toKey(row), account: toAccount(row.account) } : null;
  }
}
