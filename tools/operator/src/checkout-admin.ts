/**
 * What the `links …` and `checkouts …` commands share: a client of checkout's admin service for one
 * account and mode, closed after the command, and the account as checkout needs it at create.
 */
import { ApiError } from '@hc/errors';
import { createToolClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { CheckoutAdminService } from '@hc/proto/checkout/v1';
import type { MerchantAccount } from '@hc/accounts';
import { operatorContext, parseMode } from './arguments.ts';
import { accountOf, checkoutTarget, type CommandInput, type CommandResult, type OptionValues } from './operator-command.ts';

export type { CommandResult } from './operator-command.ts';
export interface AdminTarget {
  readonly checkoutAddress: string;
  readonly timeoutMs: number;
}

export async function withCheckoutAdmin(
  target: AdminTarget,
  account: MerchantAccount,
  mode: string | undefined,
  run: (admin: ServiceClient<typeof CheckoutAdminService>, ctx: CallContext) => Promise<CommandResult>,
): Promise<CommandResult> {
  const ctx = operatorContext(account.id, parseMode(mode));
  const admin = createToolClient(CheckoutAdminService, target.checkoutAddress, target.timeoutMs);
  try {
    return await run(admin, ctx);
  } finally {
    admin.close();
  }
}

/** The account at create; a suspended account takes no new payments, whichever way they are made. */
export function creatingAccount(account: MerchantAccount): { payoutWallet?: string; feeBps: number; merchantName: string } {
  if (account.status !== 'active') throw new ApiError('suspended');
  return { payoutWallet: account.payoutWallet ?? undefined, feeBps: account.feeBps, merchantName: account.name };
}

/** `--limit N`: absent is 0 (the service's default); not a whole number is -1, refused as invalid_limit. */
export function listLimit(raw: string | undefined): number {
  if (raw === undefined) return 0;
  return /^[0-9]{1,4}$/.test(raw) ? Number(raw) : -1;
}

/** What a `links …` or `checkouts …` command works with. */
export interface CheckoutAdminCall {
  admin: ServiceClient<typeof CheckoutAdminService>;
  ctx: CallContext;
  account: MerchantAccount;
  values: OptionValues;
}

/** Checks the command line's account, then runs `call` with checkout's admin service for it in `--mode`. */
export async function withAccountAdmin(
  input: CommandInput,
  call: (admin: CheckoutAdminCall) => Promise<CommandResult>,
): Promise<CommandResult> {
  const account = await accountOf(input);
  return withCheckoutAdmin(checkoutTarget(input.config), account, input.values.mode, (admin, ctx) =>
    call({ admin, ctx, account, values: input.values }),
  );
}
