import pg from 'pg';
import { createAccountsPrisma, type AccountsPrisma } from './prisma.ts';

/** What one data move did: rows copied (new here) and revocations carried over to keys already here. */
export interface GatewayImport {
  readonly accounts: number;
  readonly keys: number;
  readonly revocations: number;
}

interface GatewayAccountRow {
  id: string;
  name: string;
  status: string;
  payout_wallet: string | null;
  fee_bps: number;
  created_at: Date;
}

interface GatewayKeyRow {
  id: string;
  account_id: string;
  mode: string;
  key_hash: string;
  hint: string;
  label: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

/**
 * Copies merchant accounts and API keys from the gateway's database of the previous release into
 * this one (docs/adr/0086): ids, hashes, fees, wallets, statuses and revocations unchanged. Idempotent:
 * a row already here is left as it is (ON CONFLICT DO NOTHING, through Prisma), except that a key
 * revoked there since is revoked here too (a revocation only ever moves one way; the change trigger
 * tells the gateways). The gateway's tables are only read; a later release drops them.
 */
export async function importFromGatewayDatabase(prisma: AccountsPrisma, gatewayDatabaseUrl: string): Promise<GatewayImport> {
  const gateway = new pg.Client({ connectionString: gatewayDatabaseUrl });
  await gateway.connect();
  try {
    // One snapshot of both tables, so no key is read without its account.
    await gateway.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const accounts = (await gateway.query<GatewayAccountRow>('SELECT * FROM merchant_accounts ORDER BY id')).rows;
    const keys = (await gateway.query<GatewayKeyRow>('SELECT * FROM api_keys ORDER BY id')).rows;
    await gateway.query('COMMIT');
    const copiedAccounts = await prisma.merchantAccount.createMany({
      data: accounts.map((row) => ({
        id: row.id,
        name: row.name,
        status: row.status,
        payoutWallet: row.payout_wallet,
        feeBps: row.fee_bps,
        createdAt: row.created_at,
      })),
      skipDuplicates: true,
    });
    const copiedKeys = await prisma.apiKey.createMany({
      data: keys.map((row) => ({
        id: row.id,
        accountId: row.account_id,
        mode: row.mode,
        keyHash: row.key_hash,
        hint: row.hint,
        label: row.label,
        createdAt: row.created_at,
        revokedAt: row.revoked_at,
      })),
      skipDuplicates: true,
    });
    let revocations = 0;
    for (const row of keys) {
      if (row.revoked_at === null) continue;
      const { count } = await prisma.apiKey.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: row.revoked_at } });
      revocations += count;
    }
    return { accounts: copiedAccounts.count, keys: copiedKeys.count, revocations };
  } finally {
    await gateway.end();
  }
}

/** The data move on its own connections: what `migrate --import-from-gateway-database-url` and the platform runner run. */
export async function importAccountsFromGateway(accountsDatabaseUrl: string, gatewayDatabaseUrl: string): Promise<GatewayImport> {
  const prisma = createAccountsPrisma(accountsDatabaseUrl);
  try {
    return await importFromGatewayDatabase(prisma, gatewayDatabaseUrl);
  } finally {
    await prisma.$disconnect();
  }
}
