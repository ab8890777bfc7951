import {
  consumeDurable,
  contextStream,
  ensureStream,
  prefixedSubject,
  type DurableConsumer,
  type EventRetention,
  type NatsConnection,
} from '@hc/events';
import { ApiError } from '@hc/errors';
import { decodeEvent, VERDICT_REACHED, VERDICT_REACHED_SUBJECT } from '@hc/events/contracts';
import type { Logger } from '@hc/logging';
import { applyVerdict } from '../../use-cases/apply-verdict.ts';
import type { CheckoutDependencies } from '../../use-cases/dependencies.ts';
import { verdictFromMessage } from '../../use-cases/simulate-payment.ts';

/** Durable consumer name: replicas of checkout share it. */
export const VERDICTS_CONSUMER = 'checkout-settlement-verdicts';

/**
 * Applies settlement's verdicts (`settlement.verdict.reached`, the hc.settlement.v1.VerdictReached
 * message) to payments, each exactly once: applyVerdict records the verdict id in applied_verdicts
 * in the transaction that changes the payment, so a redelivery, or a verdict already applied through
 * the gRPC simulate path, changes nothing (docs/adr/0006, 0015).
 */
export async function consumeSettlementVerdicts(
  nats: NatsConnection,
  prefix: string,
  deps: CheckoutDependencies,
  retention: EventRetention,
  logger: Logger,
): Promise<DurableConsumer> {
  const stream = contextStream(prefix, 'settlement', retention);
  await ensureStream(nats, stream);
  return consumeDurable({
    nats,
    stream: stream.name,
    durable: VERDICTS_CONSUMER,
    filterSubject: prefixedSubject(prefix, VERDICT_REACHED_SUBJECT),
    logger,
    // A payload that is not hc.settlement.v1.VerdictReached is dead-lettered, never applied (ADR 0022).
    decode: (data) => decodeEvent(VERDICT_REACHED, data),
    deadLetter: { prefix, retention },
    async handle(message) {
      const event = message.data;
      const verdict = verdictFromMessage(event.verdict!);
      try {
        const payment = await applyVerdict(deps, { accountId: event.accountId, livemode: event.livemode }, verdict);
        logger.info(
          { paymentId: payment.id, verdict: verdict.id, kind: verdict.kind, status: payment.status },
          'settlement verdict applied',
        );
      } catch (error) {
        // A payment this checkout does not have will not appear later: retrying would block nothing but fill logs.
        if (error instanceof ApiError && error.code === 'not_found') {
          logger.error({ paymentId: verdict.paymentId, verdict: verdict.id }, 'settlement verdict for an unknown payment; skipped');
          return;
        }
        throw error;
      }
    },
  });
}
