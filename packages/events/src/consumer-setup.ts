import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  jetstream,
  jetstreamManager,
  type Consumer,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { DurableConsumerOptions } from './consumer.ts';
import { deadLetterStream } from './dead-letter.ts';
import { whileJetStreamSettles } from './jetstream-settling.ts';
import { ensureStream, isApiError } from './nats.ts';

// 10013 "consumer name already in use" / 10148 "consumer already exists": a replica created it first.
const CONSUMER_EXISTS = [10013, 10148];

/**
 * The durable consumer, created or updated to the options' settings, and the dead-letter stream a
 * decoding consumer refuses payloads to. Rejects a decoding consumer without a dead-letter destination.
 * Each request is asked again while a JetStream cluster is still electing its leaders (jetstream-settling.ts).
 */
export async function openDurableConsumer<T>(options: DurableConsumerOptions<T>): Promise<Consumer> {
  const { nats, stream, durable, deadLetter } = options;
  if (options.decode && !deadLetter) throw new Error(`consumer ${durable}: a decoding consumer needs a dead-letter destination`);
  if (deadLetter) await ensureStream(nats, deadLetterStream(deadLetter.prefix, deadLetter.retention));
  const settings = {
    filter_subject: options.filterSubject,
    ack_wait: nanos(options.ackWaitMs ?? 30_000),
    max_deliver: options.maxDeliver ?? -1,
  };
  await whileJetStreamSettles(async () => ensureConsumer(await jetstreamManager(nats), stream, durable, settings));
  return whileJetStreamSettles(() => jetstream(nats).consumers.get(stream, durable));
}

async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  durable: string,
  settings: { filter_subject: string; ack_wait: number; max_deliver: number },
): Promise<void> {
  // update() first: it keeps the consumer's position and merges into its current config.
  try {
    await jsm.consumers.update(stream, durable, settings);
    return;
  } catch (error) {
    if (!isApiError(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
  }
  try {
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ...settings,
    });
  } catch (error) {
    if (!CONSUMER_EXISTS.some((code) => isApiError(error, code))) throw error;
    await jsm.consumers.update(stream, durable, settings);
  }
}
