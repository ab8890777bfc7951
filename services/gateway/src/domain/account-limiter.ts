/**
 * A per-account budget (spec: about 120 requests and 12 starts a minute): spends one point of the
 * account's and says whether it was within the budget. Counted by store/rate-limit-store.ts.
 */
export interface AccountLimiter {
  consume(accountId: string): Promise<boolean>;
}
