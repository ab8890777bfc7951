/**
 * Every operator CLI action on an account goes into that account's audit log, which the dashboard
 * keeps (docs/adr/0056, 0060): before the command, a `started` line (RecordAuditEntry on the
 * dashboard's internal listener, DASHBOARD_GRPC_ADDRESS); after it, the line completed with the
 * outcome, done or refused (CompleteAuditEntry). If the started line cannot be written the command
 * does not run: an action nobody can trace is worse than one not done. If the completion fails (or
 * the CLI is killed in between) the line stays `started`: the action is in the log, its outcome not.
 * Which commands are actions is each command's `audited` in the command table (commands.ts): reads
 * (list, show, timeline) are not; `users create` is recorded by the dashboard itself, with the user. Never a secret: the command, its object and, for the payout wallet, the address
 * before and after.
 */
import { hostname, userInfo } from 'node:os';
import { createToolClient, type PublicCallContext } from '@hc/grpc';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { findCommand } from './help.ts';
import { OPERATOR_COMMANDS } from './commands.ts';
import type { OptionValues } from './operator-command.ts';

export interface OperatorAction {
  readonly words: string;
  readonly accountId: string | undefined;
  readonly target: string | undefined;
  readonly mode: string | undefined;
}

/** The action a command line takes on an account, or null for a read (or an unknown command). */
export function operatorActionOf(positionals: readonly string[], values: Partial<OptionValues>): OperatorAction | null {
  const spec = findCommand(OPERATOR_COMMANDS, positionals);
  if (!spec) return null;
  if (typeof spec.audited === 'function' ? !spec.audited(values) : !spec.audited) return null;
  const width = spec.words.split(' ').length;
  // The account is the first argument of every command that names one (not accounts create, keys revoke).
  const takesAccount = spec.synopsis.startsWith('ACCOUNT_ID');
  return {
    words: spec.words,
    accountId: takesAccount ? positionals[width] : undefined,
    target: takesAccount ? positionals[width + 1] : positionals[width],
    mode: values.mode,
  };
}

const actionName = (words: string): string => `operator.${words.replaceAll(' ', '.')}`;

/** The audit log could not be written before the command: nothing was done. */
export class AuditUnavailableError extends Error {
  override name = 'AuditUnavailableError';
}

/** A started line: complete it with the command's outcome. */
export interface StartedAction {
  readonly id: string;
  readonly action: OperatorAction;
  /** `refusedWith`: the error code (or `usage`) when the command was refused. */
  complete(outcome: { result?: Record<string, unknown> | Record<string, unknown>[]; refusedWith?: string }): Promise<void>;
}

function auditClient(timeoutMs: number) {
  const address = process.env['DASHBOARD_GRPC_ADDRESS'] ?? '127.0.0.1:50056';
  return {
    address,
    client: createToolClient<typeof DashboardUsersService, PublicCallContext>(DashboardUsersService, address, timeoutMs),
  };
}

const requestContext = () => ({ requestId: `operator_${Date.now()}` });

/**
 * Writes the `started` line before the command runs, or throws AuditUnavailableError (the command
 * must not run). `walletBefore`: the payout wallet read before `accounts set-payout-wallet`.
 */
export async function startOperatorAction(action: OperatorAction, walletBefore: string | null, timeoutMs: number): Promise<StartedAction> {
  const wallet = action.words === 'accounts set-payout-wallet';
  const { address, client } = auditClient(timeoutMs);
  let id: string;
  try {
    ({ id } = await client.recordAuditEntry(
      {
        // Empty for a command that makes or finds its account (accounts create, keys revoke): the completion names it.
        accountId: action.accountId ?? '',
        actor: userInfo().username,
        clientAddress: hostname(),
        action: actionName(action.words),
        mode: action.mode,
        target: wallet ? undefined : action.target,
        started: true,
        refused: false,
        before: wallet ? (walletBefore ?? undefined) : undefined,
      },
      requestContext(),
    ));
  } catch (error) {
    client.close();
    throw new AuditUnavailableError(
      `nothing was done: the account's audit log (the dashboard at ${address}, DASHBOARD_GRPC_ADDRESS) cannot be written: ${String(error)}`,
    );
  }
  return {
    id,
    action,
    async complete(outcome) {
      const result = Array.isArray(outcome.result) ? undefined : outcome.result;
      const field = (name: string): string | undefined => (typeof result?.[name] === 'string' ? result[name] : undefined);
      const accountId = action.accountId ?? field('account') ?? (action.words === 'accounts create' ? field('id') : undefined) ?? '';
      try {
        await client.completeAuditEntry(
          {
            id,
            accountId,
            refused: outcome.refusedWith !== undefined,
            // The object: the one named on the command line, else the one the command made (never a secret).
            target: wallet ? undefined : (action.target ?? field('id')),
            after: outcome.refusedWith !== undefined ? outcome.refusedWith : wallet ? (field('payout_wallet') ?? undefined) : undefined,
          },
          requestContext(),
        );
      } catch (error) {
        process.stderr.write(
          `warning: the action's outcome is not in the account's audit log, whose line ${id} says "started": ${String(error)}\n`,
        );
      } finally {
        client.close();
      }
    },
  };
}
