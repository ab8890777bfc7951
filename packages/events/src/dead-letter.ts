import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { metrics } from '@opentelemetry/api';
import { contextStream, prefixedSubject, type StreamOptions } from './nats.ts';
import type { EventRetention } from './retention.ts';

/**
 * Dead letters (docs/adr/0022): a consumed message whose payload breaks its contract (not JSON, not
 * the proto message, missing what the event must carry) is copied, payload and headers untouched, to
 * the DEADLETTER stream on `deadletter.<durable>` and terminated on its own stream. Nothing is
 * "applied"; an operator reads the copy with `nats stream view DEADLETTER` (or a consumer of it),
 * fixes the producer, and republishes if it matters. Every consumer that decodes does this the same way.
 */
export const DEAD_LETTER_CONTEXT = 'deadletter';

/** Headers on the copy: where it came from and why it was refused. */
export const DEAD_LETTER_HEADERS = {
  stream: 'Hc-Dead-Letter-Stream',
  subject: 'Hc-Dead-Letter-Subject',
  durable: 'Hc-Dead-Letter-Consumer',
  msgId: 'Hc-Dead-Letter-Msg-Id',
  reason: 'Hc-Dead-Letter-Reason',
} as const;

/** The dead-letter stream of a deployment (prefix as for every stream); kept as long as the others. */
export function deadLetterStream(prefix: string, retention: Pick<EventRetention, 'EVENTS_STREAM_MAX_AGE_MS'>): StreamOptions {
  return contextStream(prefix, DEAD_LETTER_CONTEXT, retention);
}

/** `deadletter.<durable>` (with the prefix): one subject per consumer that refused. */
export function deadLetterSubject(prefix: string, durable: string): string {
  return prefixedSubject(prefix, `${DEAD_LETTER_CONTEXT}.${durable.replace(/[^A-Za-z0-9_-]/g, '_')}`);
}

export interface DeadLetter {
  stream: string;
  subject: string;
  durable: string;
  msgId: string;
  reason: string;
  data: Uint8Array;
  headers: MsgHdrs | undefined;
}

/** Copies the refused message to the dead-letter stream; a re-copy of the same message is dropped by its id. */
export async function publishDeadLetter(nats: NatsConnection, prefix: string, letter: DeadLetter): Promise<void> {
  const h = natsHeaders();
  for (const [key, values] of letter.headers ?? []) {
    if (key === 'Nats-Msg-Id' || key.startsWith('Nats-Expected')) continue;
    for (const value of values) h.append(key, value);
  }
  h.set(DEAD_LETTER_HEADERS.stream, letter.stream);
  h.set(DEAD_LETTER_HEADERS.subject, letter.subject);
  h.set(DEAD_LETTER_HEADERS.durable, letter.durable);
  h.set(DEAD_LETTER_HEADERS.msgId, letter.msgId);
  // Headers are one line: a parser's message may not be.
  h.set(DEAD_LETTER_HEADERS.reason, letter.reason.replace(/[\r\n]+/g, ' ').slice(0, 1_000));
  await jetstream(nats).publish(deadLetterSubject(prefix, letter.durable), letter.data, {
    msgID: `${letter.durable}:${letter.msgId}`,
    headers: h,
  });
}

/**
 * Counts a dead-lettered message (`hc.consumer.dead_lettered`, docs/operations.md). The instrument is
 * taken from the global meter provider at each (rare) use, so it reports to whatever provider is
 * registered now, also one registered after this module loaded.
 */
export function countDeadLetter(attributes: { consumer: string; stream: string }): void {
  metrics
    .getMeter('hc-events')
    .createCounter('hc.consumer.dead_lettered', {
      description: 'Messages whose payload broke its event contract, copied to the dead-letter stream and terminated',
      unit: '{message}',
    })
    .add(1, attributes);
}

export interface StoredDeadLetter {
  /** `deadletter.<durable>` (with the prefix). */
  subject: string;
  headers: Record<(typeof DEAD_LETTER_HEADERS)[keyof typeof DEAD_LETTER_HEADERS], string>;
  /** The refused payload, as received. */
  data: string;
}

/** Every dead letter of a deployment, oldest first (operators: `nats stream view DEADLETTER`; tests). */
export async function readDeadLetters(nats: NatsConnection, stream: string): Promise<StoredDeadLetter[]> {
  const jsm = await jetstreamManager(nats);
  const info = await jsm.streams.info(stream);
  const letters: StoredDeadLetter[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq += 1) {
    const message = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
    if (!message) continue;
    const h = Object.fromEntries(
      Object.values(DEAD_LETTER_HEADERS).map((key) => [key, message.header.get(key)]),
    ) as StoredDeadLetter['headers'];
    letters.push({ subject: message.subject, headers: h, data: new TextDecoder().decode(message.data) });
  }
  return letters;
}
