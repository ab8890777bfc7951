import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  jetstream,
  jetstreamManager,
  PubHeaders,
  type ConsumerInfo,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@hc/logging';
import { countDeadLetter, deadLetterStream, deadLetterSubject, publishDeadLetter } from './dead-letter.ts';
import { ensureStream, isApiError } from './nats.ts';
import type { EventRetention } from './retention.ts';
import { consumerMessages, consumerRedeliveries, observeConsumerLag } from './metrics.ts';
import { consumeInSpan } from './tracing.ts';

export interface ConsumedMessage<T = unknown> {
  /** `Nats-Msg-Id` of the message: the outbox msg_id. The key for markProcessed. */
  msgId: string;
  /** Full subject, including any prefix. */
  subject: string;
  /** The JSON payload, parsed, and decoded by `decode` when the consumer has one. */
  data: T;
  /** True when JetStream delivered it before (a handler failed, or an ack was lost). */
  redelivered: boolean;
}

export interface DurableConsumerOptions<T = unknown> {
  nats: NatsConnection;
  stream: string;
  /** Durable name: replicas of one service share it (each message goes to one of them). */
  durable: string;
  filterSubject: string;
  logger: Logger;
  /** Resolve to ack; throw to have the message redelivered later. Must be idempotent (markProcessed). */
  handle: (message: ConsumedMessage<T>) => Promise<void>;
  /**
   * Group commit (docs/adr/0033): the messages already pulled and waiting (up to `maxBatch`) applied
   * together, in order, in one transaction. Resolve to ack them all; throw and each is handed to
   * `handle` on its own instead (so one bad message holds back nothing and rolls back nothing twice).
   * Must be all-or-nothing and idempotent per message like `handle`.
   */
  handleBatch?: (messages: ConsumedMessage<T>[]) => Promise<void>;
  /** Most messages in one `handleBatch` call. Default 100. */
  maxBatch?: number;
  /**
   * The one decode of the payload: `(data) => decodeEvent(CONTRACT, data)` (@hc/events/contracts).
   * A payload it throws on (or one that is not JSON) is dead-lettered: copied to the dead-letter
   * stream, terminated, logged and counted (docs/adr/0022), never handed to `handle`.
   */
  decode?: (data: unknown) => T;
  /** Where refused payloads go (the deployment's subject prefix and retention). Required with `decode`. */
  deadLetter?: { prefix: string; retention: Pick<EventRetention, 'EVENTS_STREAM_MAX_AGE_MS'> };
  /** Redelivery when a handler neither acks nor naks in time (a hung or crashed process). Default 30 s. */
  ackWaitMs?: number;
  /** Deliveries before giving up on a message (-1 = never give up, the default). */
  maxDeliver?: number;
  /** First redelivery delay after a handler throws; doubles per attempt up to 30 s. Default 1 s. */
  retryDelayMs?: number;
  /**
   * Called once the server confirmed a message's ack (so the consumer's ack floor may have moved):
   * read barriers waiting on this consumer re-check at once instead of at their next poll.
   */
  onAcked?: () => void;
}

export interface DurableConsumer {
  /** Stops pulling, lets the handler in flight finish and releases buffered messages at once. */
  stop(): Promise<void>;
}

// Messages pulled ahead of the handler. Small, because buffered messages' ack_wait is already running;
// larger for a batching consumer, which applies what is buffered in one go.
const PULL_BATCH = 16;
const PULL_BATCH_GROUPED = 128;
const MAX_RETRY_DELAY_MS = 30_000;
// 10013 "consumer name already in use" / 10148 "consumer already exists": a replica created it first.
const CONSUMER_EXISTS = [10013, 10148];

/**
 * A durable pull consumer with explicit acks, created or updated to the given settings, that feeds
 * messages one at a time to `handle`. A handler error is logged and the message nak'd with a delay,
 * so it comes back while later messages keep flowing (a retried message can therefore arrive after
 * later ones; handlers must not depend on strict order across a failure).
 */
export async function consumeDurable<T = unknown>(options: DurableConsumerOptions<T>): Promise<DurableConsumer> {
  const { nats, stream, durable, logger, handle } = options;
  const maxDeliver = options.maxDeliver ?? -1;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const log = logger.child({ stream, durable });
  const deadLetter = options.deadLetter;
  if (options.decode && !deadLetter) throw new Error(`consumer ${durable}: a decoding consumer needs a dead-letter destination`);
  if (deadLetter) await ensureStream(nats, deadLetterStream(deadLetter.prefix, deadLetter.retention));

  await ensureConsumer(await jetstreamManager(nats), stream, durable, {
    filter_subject: options.filterSubject,
    ack_wait: nanos(options.ackWaitMs ?? 30_000),
    max_deliver: maxDeliver,
  });
  const consumer = await jetstream(nats).consumers.get(stream, durable);
  const messages = await consumer.consume({ max_messages: options.handleBatch ? PULL_BATCH_GROUPED : PULL_BATCH });
  const maxBatch = options.maxBatch ?? 100;
  let stopping = false;
  const metricAttributes = { consumer: durable, stream };
  const stopObserving = observeConsumerLag(metricAttributes, async () => {
    const info = await consumer.info(false);
    return { pending: info.num_pending, ackPending: info.num_ack_pending };
  });
  const count = (outcome: 'acked' | 'retried' | 'terminated' | 'dead_lettered'): void =>
    consumerMessages.add(1, { ...metricAttributes, outcome });

  /** A payload that breaks its contract: copied to the dead-letter stream, then terminated (retrying cannot fix it). */
  async function refuse(m: JsMsg, context: { msgId: string; subject: string; delivery: number }, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    if (!deadLetter) {
      log.error({ ...context, err: error }, 'event consumer: payload is not JSON; message terminated');
      m.term(reason);
      count('terminated');
      return;
    }
    try {
      await publishDeadLetter(nats, deadLetter.prefix, { stream, durable, reason, data: m.data, headers: m.headers, ...context });
    } catch (publishError) {
      // Not recorded anywhere yet: keep the message and try again later.
      log.warn({ ...context, err: publishError }, 'event consumer: could not dead-letter a refused payload; will retry');
      m.nak(retryDelayMs);
      count('retried');
      return;
    }
    log.error(
      { ...context, reason, deadLetterSubject: deadLetterSubject(deadLetter.prefix, durable) },
      'event consumer: payload breaks its event contract; dead-lettered',
    );
    m.term(`dead-lettered: ${reason}`.slice(0, 200));
    count('dead_lettered');
    countDeadLetter(metricAttributes);
  }

  /** The message decoded, or null once a payload that breaks its contract was dead-lettered. */
  async function decoded(
    m: JsMsg,
  ): Promise<{ message: ConsumedMessage<T>; context: { msgId: string; subject: string; delivery: number } } | null> {
    if (m.redelivered) consumerRedeliveries.add(1, metricAttributes);
    // Without the header (a message not published by a relay) the stream position is still a stable id.
    const msgId = m.headers?.get(PubHeaders.MsgIdHdr) || `${m.info.stream}:${m.info.streamSequence}`;
    const context = { msgId, subject: m.subject, delivery: m.info.deliveryCount };
    try {
      const json = m.data.length === 0 ? undefined : m.json<unknown>();
      const data = options.decode ? options.decode(json) : (json as T);
      return { message: { msgId, subject: m.subject, data, redelivered: m.redelivered }, context };
    } catch (error) {
      // Retrying cannot fix a payload that is not JSON or not its contract's message.
      await refuse(m, context, error);
      return null;
    }
  }

  /**
   * Messages already pulled, applied together (handleBatch); if the batch fails, each on its own, so
   * a message that cannot be applied yet is retried alone and the others go through.
   */
  async function processBatch(ms: JsMsg[]): Promise<void> {
    const ready: { m: JsMsg; message: ConsumedMessage<T>; context: { msgId: string; subject: string; delivery: number } }[] = [];
    for (const m of ms) {
      const item = await decoded(m);
      if (item) ready.push({ m, ...item });
    }
    if (ready.length === 0) return;
    if (ready.length > 1 && options.handleBatch) {
      const first = ready[0]!;
      try {
        // One span for the group (parented by its first message's producer): the messages commit as one.
        await consumeInSpan({ ...first.context, headers: first.m.headers, durable }, () =>
          options.handleBatch!(ready.map((r) => r.message)),
        );
        await acknowledgeGroup(ready);
        return;
      } catch (error) {
        log.debug({ err: error, size: ready.length }, 'event consumer: batch failed; applying its messages one by one');
      }
    }
    for (const r of ready) await processDecoded(r.m, r.message, r.context);
  }

  async function process(m: JsMsg): Promise<void> {
    const item = await decoded(m);
    if (item) await processDecoded(m, item.message, item.context);
  }

  async function processDecoded(
    m: JsMsg,
    message: ConsumedMessage<T>,
    context: { msgId: string; subject: string; delivery: number },
  ): Promise<void> {
    const { msgId } = context;
    try {
      await consumeInSpan({ msgId, subject: m.subject, headers: m.headers, durable, delivery: m.info.deliveryCount }, () =>
        handle(message),
      );
    } catch (error) {
      const attempt = m.info.deliveryCount;
      if (maxDeliver > 0 && attempt >= maxDeliver) {
        log.error({ ...context, err: error }, 'event consumer: handler failed on the last allowed delivery; message dropped');
        m.term('max deliveries reached');
        count('terminated');
        return;
      }
      const retryInMs = Math.min(MAX_RETRY_DELAY_MS, retryDelayMs * 2 ** (attempt - 1));
      log.warn({ ...context, err: error, retryInMs }, 'event consumer: handler failed; message will be redelivered');
      m.nak(retryInMs);
      count('retried');
      return;
    }
    await acknowledge(m, context);
  }

  /**
   * A group's acks. Every one but the last is sent plain; the last one, with onAcked, waits for the
   * server's confirmation, which covers the group: the server handles one connection's acks in order.
   * One confirmed ack per group instead of one per message (each is a request: a timer, a reply
   * subscription and, in nats.js, an Error with its stack; 15 % of the customers consumer's CPU).
   */
  async function acknowledgeGroup(
    items: readonly { m: JsMsg; context: { msgId: string; subject: string; delivery: number } }[],
  ): Promise<void> {
    for (const { m } of items.slice(0, -1)) {
      m.ack();
      count('acked');
    }
    const last = items.at(-1);
    if (last) await acknowledge(last.m, last.context);
  }

  async function acknowledge(m: JsMsg, context: { msgId: string; subject: string; delivery: number }): Promise<void> {
    if (!options.onAcked) {
      m.ack();
      count('acked');
      return;
    }
    // Awaited, so stop() (which waits for the message in hand) returns only once the server holds the
    // ack: an ack still in flight at shutdown would hold the ack floor until ack_wait ran out.
    try {
      await m.ackAck();
    } catch (error) {
      log.warn({ ...context, err: error }, 'event consumer: ack not confirmed; the message may be redelivered');
      return;
    }
    count('acked');
    options.onAcked();
  }

  const loop = (async () => {
    try {
      if (!options.handleBatch) {
        for await (const m of messages) await settle([m]);
      } else {
        for await (const group of waitingGroups(messages, maxBatch)) await settle(group);
      }
    } catch (error) {
      log.error({ err: error }, 'event consumer: stopped consuming');
    }
  })();

  /** Handles one message or one group; after stop(), they go straight back to the server for another replica. */
  async function settle(group: JsMsg[]): Promise<void> {
    try {
      if (stopping) for (const m of group) m.nak();
      else if (group.length === 1 && !options.handleBatch) await process(group[0]!);
      else await processBatch(group);
    } catch (error) {
      // ack/nak throw only when the connection is closed; the message will be redelivered.
      log.warn({ err: error }, 'event consumer: could not acknowledge a message');
    }
  }

  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        stopping = true;
        stopObserving();
        await messages.close();
        await loop;
      })();
      return stopped;
    },
  };
}

async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  durable: string,
  settings: { filter_subject: string; ack_wait: number; max_deliver: number },
): Promise<ConsumerInfo> {
  // update() first: it keeps the consumer's position and merges into its current config.
  try {
    return await jsm.consumers.update(stream, durable, settings);
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
  }
  try {
    return await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ...settings,
    });
  } catch (error) {
    if (!CONSUMER_EXISTS.some((code) => isApiError(error, code))) throw error;
    return jsm.consumers.update(stream, durable, settings);
  }
}

const NOTHING_WAITING = Symbol('nothing waiting');

/**
 * The messages as groups of those already pulled and waiting (at most `max`): after the first of a
 * group, the next is taken only if it is there by the next turn of the event loop — a message in
 * the client's buffer resolves at once, one that must still come from the server does not.
 */
async function* waitingGroups(messages: AsyncIterable<JsMsg>, max: number): AsyncGenerator<JsMsg[]> {
  const iterator = messages[Symbol.asyncIterator]();
  let next = iterator.next();
  for (;;) {
    const first = await next;
    if (first.done) return;
    const group = [first.value];
    next = iterator.next();
    let ended = false;
    while (group.length < max) {
      const more = await Promise.race([
        next,
        new Promise<typeof NOTHING_WAITING>((resolve) => setImmediate(() => resolve(NOTHING_WAITING))),
      ]);
      if (more === NOTHING_WAITING) break;
      if (more.done) {
        ended = true;
        break;
      }
      group.push(more.value);
      next = iterator.next();
    }
    yield group;
    if (ended) return;
  }
}
