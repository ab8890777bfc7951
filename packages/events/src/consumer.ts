import type { ConsumerMessages } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@hc/logging';
import { consumerContext, type ConsumerContext } from './consumer-context.ts';
import { waitingGroups } from './consumer-groups.ts';
import { settle } from './consumer-settle.ts';
import { openDurableConsumer } from './consumer-setup.ts';
import type { EventRetention } from './retention.ts';
import { observeConsumerLag } from './metrics.ts';

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
// A pull request lives on the consumer's leader. When that NATS node dies while the client stays
// connected to another one, no reconnect tells the library to pull again: only two missed idle
// heartbeats do. The library's defaults (30 s expiry, 15 s heartbeat) stalled a consumer ~30 s after
// a leader was killed (packages/events/test/jetstream-cluster.int.test.ts); 2 s heartbeats bound it
// to ~4 s, for one small status message per consumer every 2 s while idle.
const PULL_EXPIRES_MS = 10_000;
const PULL_IDLE_HEARTBEAT_MS = 2_000;

/**
 * A durable pull consumer with explicit acks, created or updated to the given settings, that feeds
 * messages one at a time to `handle`. A handler error is logged and the message nak'd with a delay,
 * so it comes back while later messages keep flowing (a retried message can therefore arrive after
 * later ones; handlers must not depend on strict order across a failure).
 *
 * The parts: consumer-setup.ts (the stream and consumer), consumer-groups.ts (grouping what is
 * pulled), consumer-decode.ts (decoding, dead-lettering) and consumer-settle.ts (the handler and the
 * ack/nak/term policy). Handlers stay idempotent with markProcessed (maintenance.ts).
 */
export async function consumeDurable<T = unknown>(options: DurableConsumerOptions<T>): Promise<DurableConsumer> {
  const consumer = await openDurableConsumer(options);
  const messages = await consumer.consume({
    max_messages: options.handleBatch ? PULL_BATCH_GROUPED : PULL_BATCH,
    expires: PULL_EXPIRES_MS,
    idle_heartbeat: PULL_IDLE_HEARTBEAT_MS,
  });
  const ctx = consumerContext(options);
  const stopObserving = observeConsumerLag(ctx.metricAttributes, async () => {
    const info = await consumer.info(false);
    return { pending: info.num_pending, ackPending: info.num_ack_pending };
  });
  const state = { stopping: false };
  const fetching = fetchLoop(ctx, messages, state);
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        state.stopping = true;
        stopObserving();
        await messages.close();
        await fetching;
      })();
      return stopped;
    },
  };
}

/** Feeds what is pulled to the handler, one message (or, with handleBatch, one waiting group) at a time. */
async function fetchLoop<T>(ctx: ConsumerContext<T>, messages: ConsumerMessages, state: { stopping: boolean }): Promise<void> {
  try {
    if (!ctx.options.handleBatch) {
      for await (const m of messages) await settle(ctx, [m], state.stopping);
    } else {
      for await (const group of waitingGroups(messages, ctx.options.maxBatch ?? 100)) await settle(ctx, group, state.stopping);
    }
  } catch (error) {
    ctx.log.error({ err: error }, 'event consumer: stopped consuming');
  }
}
