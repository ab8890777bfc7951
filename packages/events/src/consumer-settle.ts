import type { JsMsg } from '@nats-io/jetstream';
import type { ConsumerContext, DecodedMessage, DeliveryContext } from './consumer-context.ts';
import { decodeMessage } from './consumer-decode.ts';
import { consumeInSpan } from './tracing.ts';

const MAX_RETRY_DELAY_MS = 30_000;

/**
 * Handles one pulled message or one group and settles each with the server: ack when applied, nak
 * with a growing delay when the handler throws, term on the last allowed delivery or a refused
 * payload. After stop(), messages go straight back to the server for another replica.
 */
export async function settle<T>(ctx: ConsumerContext<T>, group: JsMsg[], stopping: boolean): Promise<void> {
  try {
    if (stopping) for (const m of group) m.nak();
    else if (group.length === 1 && !ctx.options.handleBatch) await applyEach(ctx, group);
    else await applyGroup(ctx, group);
  } catch (error) {
    // ack/nak throw only when the connection is closed; the message will be redelivered.
    ctx.log.warn({ err: error }, 'event consumer: could not acknowledge a message');
  }
}

async function applyEach<T>(ctx: ConsumerContext<T>, ms: JsMsg[]): Promise<void> {
  for (const m of ms) {
    const item = await decodeMessage(ctx, m);
    if (item) await applyOne(ctx, item);
  }
}

/**
 * Messages already pulled, applied together (handleBatch); if the batch fails, each on its own, so
 * a message that cannot be applied yet is retried alone and the others go through.
 */
async function applyGroup<T>(ctx: ConsumerContext<T>, ms: JsMsg[]): Promise<void> {
  const ready: DecodedMessage<T>[] = [];
  for (const m of ms) {
    const item = await decodeMessage(ctx, m);
    if (item) ready.push(item);
  }
  const handleBatch = ctx.options.handleBatch;
  if (ready.length > 1 && handleBatch) {
    const first = ready[0]!;
    try {
      // One span for the group (parented by its first message's producer): the messages commit as one.
      await consumeInSpan({ ...first.context, headers: first.m.headers, durable: ctx.options.durable }, () =>
        handleBatch(ready.map((r) => r.message)),
      );
      await acknowledgeGroup(ctx, ready);
      return;
    } catch (error) {
      ctx.log.debug({ err: error, size: ready.length }, 'event consumer: batch failed; applying its messages one by one');
    }
  }
  for (const item of ready) await applyOne(ctx, item);
}

async function applyOne<T>(ctx: ConsumerContext<T>, { m, message, context }: DecodedMessage<T>): Promise<void> {
  const { msgId } = context;
  try {
    await consumeInSpan(
      { msgId, subject: m.subject, headers: m.headers, durable: ctx.options.durable, delivery: m.info.deliveryCount },
      () => ctx.options.handle(message),
    );
  } catch (error) {
    retryOrGiveUp(ctx, m, context, error);
    return;
  }
  await acknowledge(ctx, m, context);
}

/** A handler failure: nak'd with a doubling delay, or terminated on the last allowed delivery. */
function retryOrGiveUp<T>(ctx: ConsumerContext<T>, m: JsMsg, context: DeliveryContext, error: unknown): void {
  const attempt = m.info.deliveryCount;
  const maxDeliver = ctx.options.maxDeliver ?? -1;
  if (maxDeliver > 0 && attempt >= maxDeliver) {
    ctx.log.error({ ...context, err: error }, 'event consumer: handler failed on the last allowed delivery; message dropped');
    m.term('max deliveries reached');
    ctx.count('terminated');
    return;
  }
  const retryInMs = Math.min(MAX_RETRY_DELAY_MS, ctx.retryDelayMs * 2 ** (attempt - 1));
  ctx.log.warn({ ...context, err: error, retryInMs }, 'event consumer: handler failed; message will be redelivered');
  m.nak(retryInMs);
  ctx.count('retried');
}

/**
 * A group's acks. Every one but the last is sent plain; the last one, with onAcked, waits for the
 * server's confirmation, which covers the group: the server handles one connection's acks in order.
 * One confirmed ack per group instead of one per message (each is a request: a timer, a reply
 * subscription and, in nats.js, an Error with its stack; 15 % of the customers consumer's CPU).
 */
async function acknowledgeGroup<T>(ctx: ConsumerContext<T>, items: readonly DecodedMessage<T>[]): Promise<void> {
  for (const { m } of items.slice(0, -1)) {
    m.ack();
    ctx.count('acked');
  }
  const last = items.at(-1);
  if (last) await acknowledge(ctx, last.m, last.context);
}

async function acknowledge<T>(ctx: ConsumerContext<T>, m: JsMsg, context: DeliveryContext): Promise<void> {
  const onAcked = ctx.options.onAcked;
  if (!onAcked) {
    m.ack();
    ctx.count('acked');
    return;
  }
  // Awaited, so stop() (which waits for the message in hand) returns only once the server holds the
  // ack: an ack still in flight at shutdown would hold the ack floor until ack_wait ran out.
  try {
    await m.ackAck();
  } catch (error) {
    ctx.log.warn({ ...context, err: error }, 'event consumer: ack not confirmed; the message may be redelivered');
    return;
  }
  ctx.count('acked');
  onAcked();
}
