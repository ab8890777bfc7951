import { createServiceClient, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import { KeyDirectoryService, type Account, type ApiKey } from '@hc/proto/accounts/v1';
import type { KeyEntry } from '../use-cases/authenticate.ts';

/** The accounts context's key directory as the key cache reads it (docs/adr/0085). */
export interface KeyDirectoryClient {
  /** The key with this hash and its account, and the change position the answer reflects. */
  findKeyByHash(keyHash: string): Promise<{ found: KeyEntry | null; position: bigint }>;
  /** The changed keys (by hash) and accounts after `after` (none, with no `after`), and the position reached. */
  changes(after: bigint | undefined): Promise<{ changes: { keyHash?: string; accountId?: string }[]; position: bigint; reset: boolean }>;
  close(): void;
}

/** Calls are made on behalf of nobody: the directory answers the gateway, not a merchant. */
const CALL: PublicCallContext = { requestId: '' };

export function keyDirectoryClient(address: string, timeoutMs: number): KeyDirectoryClient {
  const client: ServiceClient<typeof KeyDirectoryService, PublicCallContext> = createServiceClient(KeyDirectoryService, address, {
    timeoutMs,
  });
  return {
    async findKeyByHash(keyHash) {
      const answer = await client.findKeyByHash({ keyHash }, CALL);
      const { key, account } = answer.entry ?? {};
      return { found: key && account ? entryOf(key, account) : null, position: answer.position };
    },
    async changes(after) {
      const answer = await client.changes(after === undefined ? {} : { after }, CALL);
      return { changes: answer.changes, position: answer.position, reset: answer.reset };
    },
    close: () => client.close(),
  };
}

function entryOf(key: ApiKey, account: Account): KeyEntry {
  return {
    key: {
      id: key.id,
      accountId: key.accountId,
      mode: key.mode === 'live' ? 'live' : 'test',
      revokedAt: key.revoked === undefined ? null : new Date(key.revoked),
    },
    account: {
      id: account.id,
      // Anything but active refuses the key: an unknown status must never let a request through.
      status: account.status === 'active' ? 'active' : 'suspended',
      name: account.name,
      payoutWallet: account.payoutWallet ?? null,
      feeBps: account.feeBps,
    },
  };
}
