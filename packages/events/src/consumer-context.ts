import type { JsMsg } from '@nats-io/jetstream';
import type { Logger } from '@hc/logging';
import type { ConsumedMessage, DurableConsumerOptions } from './consumer.ts';
import { consumerMessages } from './metrics.ts';

export type Outcome = 'acked' | 'retried' | 'terminated' | 'dead_lettered';

/** What every step of handling a message needs: the consumer's options, its logger and its counters. */
export interface ConsumerContext<T> {
  options: DurableConsumerOptions<T>;
  log: Logger;
  metricAttributes: { consumer: string; stream: string };
  count: (outcome: Outcome) => void;
  retryDelayMs: number;
}

/** Where a message came from, for logs and spans. */
export interface DeliveryContext {
  msgId: string;
  subject: string;
  delivery: number;
}

/** A pulled message, decoded and ready for the handler. */
export interface DecodedMessage<T> {
  m: JsMsg;
  message: ConsumedMessage<T>;
  context: DeliveryContext;
}

export function consumerContext<T>(options: DurableConsumerOptions<T>): ConsumerContext<T> {
  const metricAttributes = { consumer: options.durable, stream: options.stream };
  return {
    options,
    log: options.logger.child({ stream: options.stream, durable: options.durable }),
    metricAttributes,
    count: (outcome) => consumerMessages.add(1, { ...metricAttributes, outcome }),
    retryDelayMs: options.retryDelayMs ?? 1_000,
  };
}
