/** The account as the gateway or the operator passed it (AccountSnapshot message → use-case shape). */
export function accountSnapshot(account: { payoutWallet?: string; feeBps: number; merchantName?: string } | undefined): {
  payoutWallet: string | null;
  feeBps: number;
  merchantName: string | null;
} {
  return { payoutWallet: account?.payoutWallet ?? null, feeBps: account?.feeBps ?? 0, merchantName: account?.merchantName ?? null };
}
