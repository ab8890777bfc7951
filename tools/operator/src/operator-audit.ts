/**
 * Every operator CLI action on an account goes into that account's audit log, which the dashboard
 * keeps (docs/adr/0056): after the command, done or refused, one RecordAuditEntry call to the
 * dashboard's internal listener (DASHBOARD_GRPC_ADDRESS). Reads (list, show, timeline) are not
 * actions; `users create` is recorded by the dashboard itself. Never a secret: the command, its object
 * and, for the payout wallet, the address before and after. If the dashboard cannot be reached the
 * command's own result stands and a warning says the entry is missing (the action is already done).
 */
import { hostname, userInfo } from 'node:os';
import { type ApiError } from '@hc/errors';
import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { findCommand } from './help.ts';
import { OPERATOR_COMMANDS } from './commands.ts';

/** Commands that only read, or that the dashboard records itself. */
const NOT_ACTIONS = new Set([
  'accounts list',
  'accounts show',
  'keys list',
  'payments timeline',
  'links list',
  'checkouts list',
  'checkouts show',
  'webhooks endpoints list',
  'webhooks endpoints show',
  'webhooks events list',
  'webhooks attempts list',
  'users create',
  'emulator pay',
]);

export interface OperatorAction {
  readonly words: string;
  readonly accountId: string | undefined;
  readonly target: string | undefined;
  readonly mode: string | undefined;
}

/** The action a command line takes on an account, or null for a read (or an unknown command). */
export function operatorActionOf(
  positionals: readonly string[],
  values: { mode?: string | undefined; set?: string | undefined },
): OperatorAction | null {
  const spec = findCommand(OPERATOR_COMMANDS, positionals);
  if (!spec || NOT_ACTIONS.has(spec.words)) return null;
  // `customers note` without --set only reads the note.
  if (spec.words === 'customers note' && values.set === undefined) return null;
  const width = spec.words.split(' ').length;
  const takesAccount = spec.words !== 'accounts create' && spec.words !== 'keys revoke';
  return {
    words: spec.words,
    accountId: takesAccount ? positionals[width] : undefined,
    target: takesAccount ? positionals[width + 1] : positionals[width],
    mode: values.mode,
  };
}

const actionName = (words: string): string => `operator.${words.replaceAll(' ', '.')}`;

/**
 * Writes the line. `result` is what the command printed (for the account of `accounts create` and
 * `keys revoke`, the wallet after, the id of what was made), `error` its refusal; `walletBefore` the
 * payout wallet read before `accounts set-payout-wallet`.
 */
export async function recordOperatorAction(
  action: OperatorAction,
  outcome: { result?: Record<string, unknown> | Record<string, unknown>[]; error?: ApiError; walletBefore?: string | null },
  timeoutMs: number,
): Promise<void> {
  const result = Array.isArray(outcome.result) ? undefined : outcome.result;
  const field = (name: string): string | undefined => (typeof result?.[name] === 'string' ? result[name] : undefined);
  const accountId = action.accountId ?? field('account') ?? (action.words === 'accounts create' ? field('id') : undefined);
  if (!accountId) return;
  const wallet = action.words === 'accounts set-payout-wallet';
  const address = process.env['DASHBOARD_GRPC_ADDRESS'] ?? '127.0.0.1:50056';
  const client = createServiceClient<typeof DashboardUsersService, PublicCallContext>(DashboardUsersService, address, { timeoutMs });
  try {
    await client.recordAuditEntry(
      {
        accountId,
        actor: userInfo().username,
        clientAddress: hostname(),
        action: actionName(action.words),
        mode: action.mode,
        // The object: the one named on the command line, else the one the command made (never a secret).
        target: wallet ? undefined : (action.target ?? field('id')),
        refused: outcome.error !== undefined,
        before: wallet ? (outcome.walletBefore ?? undefined) : undefined,
        after: outcome.error ? outcome.error.code : wallet ? (field('payout_wallet') ?? undefined) : undefined,
      },
      { requestId: `operator_${Date.now()}` },
    );
  } catch (error) {
    process.stderr.write(`warning: the action was done but is not in the account's audit log: ${String(error)}\n`);
  } finally {
    client.close();
  }
}
