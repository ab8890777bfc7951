import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import type { Logger } from '@hc/logging';
import { WebhookVerificationError, type Webhook } from 'standardwebhooks';
import { decideForwardTarget } from '../../use-cases/decide-forward-target.ts';
import type { SettlementDependencies } from '../../use-cases/dependencies.ts';

/** An answer of the listener: status and JSON body. */
export interface ListenerAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** How each refusal of the decision reaches the processor; anything else is a 500 (it asks again). */
const REFUSALS: Readonly<Record<string, number>> = { not_found: 404, no_payout_wallet: 409, service_unavailable: 503 };

function question(body: unknown): { paymentId: string; txidIn: string } | null {
  const { payment_id: paymentId, txid_in: txidIn } = (body ?? {}) as { payment_id?: unknown; txid_in?: unknown };
  if (typeof paymentId !== 'string' || !isId('payment', paymentId)) return null;
  if (typeof txidIn !== 'string' || txidIn.length === 0 || txidIn.length > 200) return null;
  return { paymentId, txidIn };
}

/**
 * `POST /forward-target` on the processor's listener: before it forwards a transfer, the processor
 * asks where to (docs/adr/0081). Signed like a notice (Standard Webhooks, the same secret): only the
 * processor may ask, and the answer names a wallet. Body `{payment_id, txid_in}`; answer
 * `200 {payout_wallet}`, or a refusal after which the money stays with the processor: 404 `not_found`,
 * 409 `no_payout_wallet`, 503 `service_unavailable` (the account's owner did not answer; ask again).
 * A repeated question (same id, or a new one for the same transfer) gets the same wallet.
 */
export async function answerForwardTarget(
  deps: SettlementDependencies,
  verifier: Webhook,
  raw: Buffer,
  headers: Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>,
  log: Logger,
): Promise<ListenerAnswer> {
  let body: unknown;
  try {
    body = verifier.verify(raw, headers);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    log.warn({ requestId: headers['webhook-id'] || null, reason: error.message }, 'forward target question rejected: signature');
    return { status: 401, body: { error: 'invalid_signature', message: error.message } };
  }
  const asked = question(body);
  if (!asked) return { status: 400, body: { error: 'invalid_request', message: 'payment_id (a pay_ id) and txid_in are required' } };
  try {
    const wallet = await decideForwardTarget(deps, asked);
    log.info({ paymentId: asked.paymentId, txidIn: asked.txidIn }, 'forward target decided');
    return { status: 200, body: { payment_id: asked.paymentId, txid_in: asked.txidIn, payout_wallet: wallet } };
  } catch (error) {
    const status = error instanceof ApiError ? REFUSALS[error.code] : undefined;
    if (status === undefined) throw error;
    log.warn({ paymentId: asked.paymentId, code: (error as ApiError).code }, 'forward target not decided; the processor keeps the money');
    return { status, body: { error: (error as ApiError).code, message: (error as ApiError).message } };
  }
}
