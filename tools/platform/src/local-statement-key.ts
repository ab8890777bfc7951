/**
 * The local platform's statement signing key (docs/adr/0088): ./scripts/start makes one the first time
 * and keeps it in the local state database of the cluster (local-state.ts, docs/adr/0083), beside the
 * data whose statements it signs, so a statement downloaded yesterday, in another clone or after a
 * `git clean`, still verifies with the key the pages publish today. STATEMENT_SIGNING_KEY in the
 * environment wins (STATEMENT_PUBLIC_KEYSET too, else its own public key is published). A kept key that
 * does not parse is an error, never replaced. A cluster's key comes from a Kubernetes Secret
 * (deploy/README.md), never from here.
 */
import { newStatementKey, parseSigningKey, publicKeyEntry } from '@hc/exports';
import { CLUSTER_SCOPE, type LocalState } from './local-state.ts';

export const STATEMENT_KEY_NAME = 'statement-signing-key';

export interface LocalStatementKeys {
  /** STATEMENT_SIGNING_KEY for the dashboard (and the operator CLI). */
  readonly signingKey: string;
  /** STATEMENT_PUBLIC_KEYSET for the pages, which publish them, and the dashboard, which checks its key is among them. */
  readonly publicKeys: string;
  readonly keyId: string;
  readonly origin: 'environment' | 'kept' | 'new';
}

export async function localStatementKeys(state: LocalState, env: NodeJS.ProcessEnv = process.env): Promise<LocalStatementKeys> {
  const fromEnv = env['STATEMENT_SIGNING_KEY']?.trim();
  let origin: LocalStatementKeys['origin'] = fromEnv ? 'environment' : 'kept';
  const signingKey =
    fromEnv ??
    String(
      await state.update(CLUSTER_SCOPE, STATEMENT_KEY_NAME, (kept) => {
        if (kept !== undefined) return undefined;
        origin = 'new';
        return newStatementKey(`local-${Date.now().toString(36)}`).signingKey;
      }),
    );
  let signer;
  try {
    signer = parseSigningKey(signingKey);
  } catch (error) {
    const where = origin === 'environment' ? 'STATEMENT_SIGNING_KEY' : `${state.url} (${STATEMENT_KEY_NAME})`;
    throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
  }
  const publicKeys = env['STATEMENT_PUBLIC_KEYSET']?.trim() || publicKeyEntry(signer.keyId, signer.publicKey);
  return { signingKey, publicKeys, keyId: signer.keyId, origin };
}
