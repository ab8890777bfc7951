import { ApiError } from '@hc/errors';
import { newId } from '@hc/ids';
import { DEFAULT_FEE_BPS, type MerchantAccount } from '../domain/merchant-account.ts';
import { checkedPayoutWallet, type MerchantDependencies } from './merchant-dependencies.ts';

export interface CreateAccountInput {
  readonly name: string;
  readonly payoutWallet?: string | undefined;
  readonly feeBps?: number | undefined;
}

/** A new active merchant account (the fee defaults to DEFAULT_FEE_BPS). */
export async function createAccount(deps: MerchantDependencies, input: CreateAccountInput): Promise<MerchantAccount> {
  if (input.name.trim() === '') throw new ApiError('invalid_request', 'An account needs a name.', 'name');
  if (input.payoutWallet !== undefined) checkedPayoutWallet(input.payoutWallet);
  const feeBps = input.feeBps ?? DEFAULT_FEE_BPS;
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > 10_000) {
    throw new ApiError('invalid_request', 'fee_bps must be a whole number from 0 to 10000.', 'fee_bps');
  }
  const account: MerchantAccount = {
    id: newId('account'),
    name: input.name.trim(),
    status: 'active',
    payoutWallet: input.payoutWallet ?? null,
    feeBps,
    createdAt: deps.now(),
  };
  await deps.store.insertAccount(account);
  return account;
}
