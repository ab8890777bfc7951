/**
 * One entry of the operator's command table (commands.ts): its help (CommandSpec, rendered by
 * help.ts), what it runs, and whether running it is an action on an account for the audit log
 * (operator-audit.ts). The command's words are written once, in its entry.
 */
import type { parseArgs } from 'node:util';
import type { AccountVerbs, MerchantAccount } from '@hc/accounts';
import type { GatewayConfig } from '@hc/gateway';
import { need } from './arguments.ts';
import type { OPTIONS } from './commands.ts';
import type { CommandSpec } from './help.ts';

export type OptionValues = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>['values'];
export type CommandResult = Record<string, unknown> | Record<string, unknown>[];

export interface CommandInput {
  readonly ops: AccountVerbs;
  readonly config: GatewayConfig;
  readonly values: OptionValues;
  /** The positional arguments after the command's words (ACCOUNT_ID first, for most commands). */
  readonly args: readonly string[];
}

export interface OperatorCommand extends CommandSpec {
  run(input: CommandInput): Promise<CommandResult>;
  /**
   * Whether a run is an action on an account, written to its audit log before it runs (docs/adr/0056,
   * 0060). Not for reads, nor for what the dashboard records itself (`users create`).
   */
  readonly audited: boolean | ((values: Partial<OptionValues>) => boolean);
}

/** The account named by the first argument; refused (not_found) when there is none. */
export function accountOf(input: CommandInput): Promise<MerchantAccount> {
  return input.ops.getAccount(need(input.args[0], 'ACCOUNT_ID'));
}

/** The checkout service's address and call timeout, for the commands that use its admin service. */
export function checkoutTarget(config: GatewayConfig): { checkoutAddress: string; timeoutMs: number } {
  return { checkoutAddress: config.CHECKOUT_GRPC_ADDRESS, timeoutMs: config.GRPC_TIMEOUT_MS };
}
