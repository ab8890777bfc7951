import { createServiceClient, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import { KeyDirectoryService, type Account, type ApiKey } from '@hc/proto/accounts/v1';
import type { KeyEntry } from '../use-cases/authenticate.ts';

/** Changed keys (by hash) and accounts, the position they reach, and whether to forget everything instead. */
export interface ChangesAnswer {
  readonly changes: readonly { keyHash?: string; accountId?: string }[];
  readonly position: bigint;
  readonly reset: boolean;
}

/** One HoldLease call of a key cache (docs/adr/0108). */
export interface LeaseCall {
  readonly cacheId: string;
  /** The position applied; undefined for a new cache. */
  readonly applied: bigint | undefined;
  /** The lease asked for; 0 gives it back. */
  readonly leaseMs: number;
  /** This cache's call number, growing with each call. */
  readonly renewal: bigint;
  /** The call's deadline: a renewal answered later than its lease is of no use. */
  readonly timeoutMs: number;
}

/** The accounts context's key directory as the key cache reads it (docs/adr/0085, 0108). */
export interface KeyDirectoryClient {
  /** The key with this hash and its account, and the change position the answer reflects. */
  findKeyByHash(keyHash: string): Promise<{ found: KeyEntry | null; position: bigint }>;
  /**
   * Holds the cache's lease for `leaseMs` (or what accounts grants, answered) having applied `applied`
   * (none for a new cache), and answers the changes after it.
   */
  holdLease(call: LeaseCall): Promise<ChangesAnswer & { leaseMs: number }>;
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
    async holdLease({ cacheId, applied, leaseMs, renewal, timeoutMs }) {
      const request = applied === undefined ? { cacheId, leaseMs, renewal } : { cacheId, applied, leaseMs, renewal };
      const answer = await client.holdLease(request, CALL, { timeoutMs });
      return { changes: answer.changes, position: answer.position, reset: answer.reset, leaseMs: answer.leaseMs };
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
