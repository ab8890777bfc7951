import type { PublicCallContext, ServiceHandlers } from '@hc/grpc';
import type { KeyDirectoryService } from '@hc/proto/accounts/v1';
import {
  changesAfter,
  findKeyByHash,
  holdLease,
  type AccountChange,
  type KeyDirectoryDependencies,
} from '../../use-cases/key-directory.ts';
import { accountMessage, keyMessage } from './messages.ts';

/** What the gateway's key cache reads (docs/adr/0085, 0108): a key by its hash, the change feed and its lease. */
export function keyDirectoryHandlers(deps: KeyDirectoryDependencies): ServiceHandlers<typeof KeyDirectoryService, PublicCallContext> {
  return {
    async findKeyByHash(request) {
      const { found, position } = await findKeyByHash(deps, request.keyHash);
      return { entry: found ? { key: keyMessage(found.key), account: accountMessage(found.account) } : undefined, position };
    },
    async changes(request) {
      const { changes, position, reset } = await changesAfter(deps, request.after);
      return { changes: changes.map(changeMessage), position, reset };
    },
    async holdLease(request) {
      const answer = await holdLease(deps, {
        cacheId: request.cacheId,
        applied: request.applied,
        leaseMs: request.leaseMs,
        renewal: request.renewal,
      });
      return { ...answer, changes: answer.changes.map(changeMessage) };
    },
  };
}

function changeMessage(change: AccountChange): { position: bigint; keyHash?: string; accountId?: string } {
  return { position: change.position, keyHash: change.keyHash ?? undefined, accountId: change.accountId ?? undefined };
}
