/**
 * The local demo merchant of ./scripts/start and its Test key, which survives restarts the way a
 * provider's test keys do: the key is stored hashed like any other; its secret is kept in the
 * git-ignored local state folder (.local/demo-merchant.json, readable by its owner only) so the next
 * start can print it again. Rolling makes a new key and revokes the old ones (docs/adr/0018).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MerchantOperations } from '@hc/gateway';

export const DEMO_ACCOUNT = 'Demo Shop';
export const DEMO_KEY_LABEL = 'platform start (demo)';
const DEMO_WALLET = '0x1111111111111111111111111111111111111111';

export interface DemoMerchant {
  accountId: string;
  /** The Test key's secret (sk_test_…). */
  secret: string;
  /** kept: the key of the last start still works; new: there was none to keep; rolled: asked for a new one. */
  key: 'kept' | 'new' | 'rolled';
}

interface SavedKey {
  account: string;
  secret: string;
}

function readSavedKey(stateFile: string): SavedKey | undefined {
  try {
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')) as Partial<SavedKey>;
    return typeof saved.account === 'string' && typeof saved.secret === 'string'
      ? { account: saved.account, secret: saved.secret }
      : undefined;
  } catch {
    return undefined; // none yet, or unreadable: a new key replaces it
  }
}

/** Written whole or not at all (rename), so a crash never leaves half a file. */
function saveKey(stateFile: string, saved: SavedKey): void {
  mkdirSync(dirname(stateFile), { recursive: true, mode: 0o700 });
  const partial = `${stateFile}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, stateFile);
}

/**
 * Makes sure the demo account exists and is active, and returns its Test key: the saved one while it
 * is still an active Test key of that account, else (or when `roll`) a new one. A new key is saved
 * before the old demo keys are revoked, so a crash in between leaves a working key on disk.
 */
export async function ensureDemoMerchant(
  operations: MerchantOperations,
  stateFile: string,
  options: { roll: boolean },
): Promise<DemoMerchant> {
  const demo =
    (await operations.listAccounts()).find((a) => a.name === DEMO_ACCOUNT) ??
    (await operations.createAccount({ name: DEMO_ACCOUNT, payoutWallet: DEMO_WALLET }));
  if (demo.status !== 'active') await operations.reactivate(demo.id);

  const saved = readSavedKey(stateFile);
  if (saved && !options.roll && saved.account === demo.id) {
    const key = await operations.activeKey(saved.secret);
    if (key?.accountId === demo.id && key.mode === 'test') return { accountId: demo.id, secret: saved.secret, key: 'kept' };
  }

  const created = await operations.createKey(demo.id, 'test', DEMO_KEY_LABEL);
  saveKey(stateFile, { account: demo.id, secret: created.secret });
  for (const key of await operations.listKeys(demo.id)) {
    if (key.label === DEMO_KEY_LABEL && key.revokedAt === null && key.id !== created.key.id) await operations.revokeKey(key.id);
  }
  return { accountId: demo.id, secret: created.secret, key: options.roll ? 'rolled' : 'new' };
}
