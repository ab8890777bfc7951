/**
 * The local demo merchant of ./scripts/start and its Test key, which survives restarts the way a
 * provider's test keys do: the key is stored hashed like any other; its secret is kept in the local
 * state database beside the gateway's (local-state.ts, docs/adr/0083), so the next start, from this
 * clone or any other on the same databases, prints it again. Rolling makes a new key and revokes the
 * old ones (docs/adr/0018).
 */
import { readFileSync } from 'node:fs';
import type { AccountVerbs } from '@hc/accounts';
import type { LocalState } from './local-state.ts';

export const DEMO_ACCOUNT = 'Demo Shop';
export const DEMO_KEY_LABEL = 'platform start (demo)';
const DEMO_WALLET = '0x1111111111111111111111111111111111111111';
const SAVED_KEY_NAME = 'demo-merchant';

export interface DemoMerchant {
  accountId: string;
  /** The Test key's secret (sk_test_…). */
  secret: string;
  /** kept: the key of the last start still works; new: there was none to keep; rolled: asked for a new one. */
  key: 'kept' | 'new' | 'rolled';
}

export interface SavedKey {
  account: string;
  secret: string;
}

/** Where the demo key's secret is kept between starts. */
export interface SavedKeyStore {
  read(): Promise<SavedKey | undefined>;
  save(saved: SavedKey): Promise<void>;
}

function parseSavedKey(text: string | undefined): SavedKey | undefined {
  if (text === undefined) return undefined;
  try {
    const saved = JSON.parse(text) as Partial<SavedKey>;
    return typeof saved.account === 'string' && typeof saved.secret === 'string'
      ? { account: saved.account, secret: saved.secret }
      : undefined;
  } catch {
    return undefined; // unreadable: a new key replaces it
  }
}

function readCloneFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The demo key kept in the local state database under `scope` (the gateway database's: several
 * platforms may share a cluster, each with its own demo account). A clone that kept it in its own
 * .local/demo-merchant.json before ADR 0083 has it read from there while the database has none, so
 * its printed key stays the same, and is copied into the database for the other clones.
 */
export function keptInLocalState(state: LocalState, scope: string, cloneFile: string): SavedKeyStore {
  return {
    async read() {
      const kept = parseSavedKey(await state.get(scope, SAVED_KEY_NAME));
      if (kept) return kept;
      const fromClone = parseSavedKey(readCloneFile(cloneFile));
      if (fromClone) await state.put(scope, SAVED_KEY_NAME, JSON.stringify(fromClone));
      return fromClone;
    },
    save: (saved) => state.put(scope, SAVED_KEY_NAME, JSON.stringify(saved)),
  };
}

/**
 * Makes sure the demo account exists and is active, and returns its Test key: the saved one while it
 * is still an active Test key of that account, else (or when `roll`) a new one. A new key is saved
 * before the old demo keys are revoked, so a crash in between leaves a working key kept.
 */
export async function ensureDemoMerchant(
  operations: AccountVerbs,
  store: SavedKeyStore,
  options: { roll: boolean },
): Promise<DemoMerchant> {
  const demo =
    (await operations.listAccounts()).find((a) => a.name === DEMO_ACCOUNT) ??
    (await operations.createAccount({ name: DEMO_ACCOUNT, payoutWallet: DEMO_WALLET }));
  if (demo.status !== 'active') await operations.reactivate(demo.id);

  const saved = await store.read();
  if (saved && !options.roll && saved.account === demo.id) {
    const key = await operations.activeKey(saved.secret);
    if (key?.accountId === demo.id && key.mode === 'test') return { accountId: demo.id, secret: saved.secret, key: 'kept' };
  }

  const created = await operations.createKey(demo.id, 'test', DEMO_KEY_LABEL);
  await store.save({ account: demo.id, secret: created.secret });
  for (const key of await operations.listKeys(demo.id)) {
    if (key.label === DEMO_KEY_LABEL && key.revokedAt === null && key.id !== created.key.id) await operations.revokeKey(key.id);
  }
  return { accountId: demo.id, secret: created.secret, key: options.roll ? 'rolled' : 'new' };
}
