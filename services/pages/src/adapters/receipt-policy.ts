import { sharedCalls } from '@hc/batching';
import type { PublicCallContext, ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { ReceiptPolicyService } from '@hc/proto/notifications/v1';
import type { HostedSession } from '../domain/hosted-session.ts';

/** Does this session's account mail a receipt for a payment of its mode? */
export type ReceiptPolicy = (session: HostedSession, ctx: PublicCallContext) => Promise<boolean>;

/** Short: the answer only changes words on the page, never worth holding the page for. */
export const RECEIPT_POLICY_TIMEOUT_MS = 1_000;

/**
 * Asks the notifications context (which owns the account's receipt settings, docs/notifications.md).
 * Unconfigured or unreachable: false, so the page promises nothing it cannot be sure is sent.
 */
export function receiptPolicy(
  client: ServiceClient<typeof ReceiptPolicyService, PublicCallContext> | undefined,
  logger: Logger,
): ReceiptPolicy {
  if (!client) return async () => false;
  // The views of one merchant's payments asked at once share one call, started after each of them
  // (docs/adr/0097): a sale's buyers cost notifications one read per round trip, not one each.
  const policyOf = sharedCalls(
    ({ session, ctx }: { session: HostedSession; ctx: PublicCallContext }) =>
      client.getReceiptPolicy({ accountId: session.accountId, livemode: session.livemode }, ctx),
    ({ session }) => `${session.livemode ? 'live' : 'test'}:${session.accountId}`,
  );
  return async (session, ctx) => {
    try {
      return (await policyOf({ session, ctx })).receiptsSent;
    } catch (error) {
      logger.warn(
        { err: error, requestId: ctx.requestId },
        'receipt policy unknown (notifications unreachable); the page promises no receipt',
      );
      return false;
    }
  };
}
