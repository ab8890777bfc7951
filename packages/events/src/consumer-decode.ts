import { PubHeaders, type JsMsg } from '@nats-io/jetstream';
import type { ConsumerContext, DecodedMessage, DeliveryContext } from './consumer-context.ts';
import { countDeadLetter, deadLetterSubject, publishDeadLetter } from './dead-letter.ts';
import { consumerRedeliveries } from './metrics.ts';

/** The message decoded, or null once a payload that breaks its contract was dead-lettered. */
export async function decodeMessage<T>(ctx: ConsumerContext<T>, m: JsMsg): Promise<DecodedMessage<T> | null> {
  if (m.redelivered) consumerRedeliveries.add(1, ctx.metricAttributes);
  // Without the header (a message not published by a relay) the stream position is still a stable id.
  const msgId = m.headers?.get(PubHeaders.MsgIdHdr) || `${m.info.stream}:${m.info.streamSequence}`;
  const context = { msgId, subject: m.subject, delivery: m.info.deliveryCount };
  try {
    const json = m.data.length === 0 ? undefined : m.json<unknown>();
    const data = ctx.options.decode ? ctx.options.decode(json) : (json as T);
    return { m, message: { msgId, subject: m.subject, data, redelivered: m.redelivered }, context };
  } catch (error) {
    // Retrying cannot fix a payload that is not JSON or not its contract's message.
    await refuse(ctx, m, context, error);
    return null;
  }
}

/** A payload that breaks its contract: copied to the dead-letter stream, then terminated (retrying cannot fix it). */
async function refuse<T>(ctx: ConsumerContext<T>, m: JsMsg, context: DeliveryContext, error: unknown): Promise<void> {
  const { log, count, options } = ctx;
  const { deadLetter, stream, durable } = options;
  const reason = error instanceof Error ? error.message : String(error);
  if (!deadLetter) {
    log.error({ ...context, err: error }, 'event consumer: payload is not JSON; message terminated');
    m.term(reason);
    count('terminated');
    return;
  }
  try {
    await publishDeadLetter(options.nats, deadLetter.prefix, { stream, durable, reason, data: m.data, headers: m.headers, ...context });
  } catch (publishError) {
    // Not recorded anywhere yet: keep the message and try again later.
    log.warn({ ...context, err: publishError }, 'event consumer: could not dead-letter a refused payload; will retry');
    m.nak(ctx.retryDelayMs);
    count('retried');
    return;
  }
  log.error(
    { ...context, reason, deadLetterSubject: deadLetterSubject(deadLetter.prefix, durable) },
    'event consumer: payload breaks its event contract; dead-lettered',
  );
  m.term(`dead-lettered: ${reason}`.slice(0, 200));
  count('dead_lettered');
  countDeadLetter(ctx.metricAttributes);
}
