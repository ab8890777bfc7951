import type { Payment } from '@hc/proto/checkout/v1/payment';

/** One page of the account's Live payments, as checkout lists them (newest first). */
export type ListPage = (request: {
  limit: number;
  status: string;
  startingAfter?: string;
}) => Promise<{ data: Payment[]; hasMore: boolean }>;

/** Pages read per status at most: a wallet change must not wait on an unbounded list. */
const MAX_PAGES = 10;
const PAGE = 100;

/**
 * The Live payments started and not yet paid (open with a start, or pending at a provider): their
 * money goes to the wallet the account has when it is forwarded (docs/adr/0081), so a wallet-change
 * notice names them. Newest first; at most 1,000 per status are read.
 */
export async function listStartedUnpaid(list: ListPage): Promise<string[]> {
  const ids: string[] = [];
  for (const status of ['pending', 'open']) {
    let startingAfter: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const answer = await list({ limit: PAGE, status, ...(startingAfter ? { startingAfter } : {}) });
      const { hasMore, data: payments } = answer;
      ids.push(...payments.filter((p) => p.startedAt !== undefined).map((p) => p.id));
      startingAfter = payments.at(-1)?.id;
      if (!hasMore || !startingAfter) break;
    }
  }
  return ids;
}
