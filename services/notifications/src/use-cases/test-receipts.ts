import type { Sql } from '../store/database.ts';
import type { NotificationsDependencies } from './dependencies.ts';

/**
 * Why a Test receipt to this address is not sent (null: it is). A Test key can make a payment paid
 * with any buyer email and the merchant's own text, so Test receipts would let any merchant make the
 * platform mail anyone (issue 47 item 7). They go only to the account's own people — an address that
 * signs in to its dashboard — and at most `perAccountHour` an hour. A dashboard that does not answer
 * is a no: the receipt is recorded as canceled, with the reason, in the mail log.
 * Runs inside the event's transaction; the count holds the account's lock to the end of it.
 */
export async function testReceiptRefusal(deps: NotificationsDependencies, sql: Sql, accountId: string, to: string): Promise<string | null> {
  const { accountUsers, perAccountHour, toAnyAddress } = deps.testReceipts;
  if (!toAnyAddress) {
    const isUser = await accountUsers.isUser(accountId, to).catch(() => null);
    if (isUser === null) return 'Not sent: the dashboard could not confirm the address is one of this account’s users.';
    if (!isUser) return 'Not sent: Test receipts go only to the addresses of this account’s dashboard users.';
  }
  if ((await deps.mails.testReceiptsInLastHour(sql, accountId)) >= perAccountHour)
    return `Not sent: at most ${perAccountHour} Test receipts an hour per account.`;
  return null;
}
