import type { CallContext } from '@hc/grpc';
import { newId } from '@hc/ids';
import type { Mode } from '@hc/accounts';

/** A command line the operator CLI cannot run: it prints the usage and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A required argument or option value. */
export function need(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

/** `--mode test|live`, required. */
export function parseMode(value: string | undefined): Mode {
  const mode = need(value, '--mode test|live');
  if (mode !== 'test' && mode !== 'live') throw new UsageError('--mode must be test or live');
  return mode;
}

/** The gRPC call context of a dashboard action on one account in one mode. */
export function operatorContext(accountId: string, mode: Mode): CallContext {
  return { accountId, livemode: mode === 'live', requestId: newId('request') };
}
