import type { Mode } from './api-key.ts';

export type AccountStatus = 'active' | 'suspended';

export interface MerchantAccount {
  readonly id: string;
  readonly name: string;
  readonly status: AccountStatus;
  readonly payoutWallet: string | null;
  readonly feeBps: number;
  readonly createdAt: Date;
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly accountId: string;
  readonly mode: Mode;
  readonly hint: string;
  readonly label: string | null;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

/** The platform's default fee, in basis points of what arrives (1.5%). */
export const DEFAULT_FEE_BPS = 150;

// Payouts go to a Polygon (EVM) address.
const WALLET_PATTERN = /^0x[0-9a-fA-F]{40}$/;

export function isPayoutWallet(value: string): boolean {
  return WALLET_PATTERN.test(value);
}
