/**
 * The event pipeline under a create burst (tools/bench/src/bench.ts): after the burst's last answer, how long
 * until checkout's outbox is published (GetEventsPosition answers) and each durable consumer of the
 * checkout stream has settled through that position; and the lag of every burst event from its
 * outbox row's commit to the relay's publish and to the customers projection applying it.
 */
import { createServiceClient } from '@hc/grpc';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { connectNats, consumerProgress, streamName } from '@hc/events';
import { percentiles, run } from './measure.ts';

export interface PipelineTarget {
  checkoutGrpcAddress: string;
  checkoutDatabaseUrl: string;
  customersDatabaseUrl: string;
  natsUrl: string;
  natsPrefix: string;
  accountId: string;
}

/** Durable consumers of the checkout stream, by owner (services/customers, services/webhooks). */
const CONSUMERS = { customers: 'customers', webhooks: 'webhooks_payment_events' } as const;

/** The rows of one query through psql, space-separated fields. */
export async function rows(databaseUrl: string, sql: string): Promise<string[][]> {
  const { stdout } = await run('psql', [databaseUrl, '-At', '-F', ' ', '-c', sql], { maxBuffer: 256 * 1024 * 1024 });
  return stdout
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => line.split(' '));
}

export interface PipelineFigures {
  outboxDrainedMs: number;
  consumersDrainedMs: Record<string, number>;
  events: number;
  publishLag: { p50: number; p99: number };
  customersLag: { p50: number; p99: number };
}

/** Waits for the pipeline to drain after a burst that ended at `burstEnd` (performance.now()) and began at `since`. */
export async function drainAfterBurst(target: PipelineTarget, burstEnd: number, since: Date): Promise<PipelineFigures> {
  const checkout = createServiceClient(CheckoutService, target.checkoutGrpcAddress, { timeoutMs: 120_000 });
  const nats = await connectNats(target.natsUrl, 'bench');
  try {
    const ctx = { accountId: target.accountId, livemode: false, requestId: `bench-${Date.now()}` };
    let position: bigint | number | undefined;
    while (position === undefined) {
      const answer = await checkout.getEventsPosition({ waitMs: 60_000 }, ctx);
      if (answer.streamSequence) position = answer.streamSequence;
    }
    const outboxDrainedMs = performance.now() - burstEnd;
    const stream = streamName(target.natsPrefix, 'checkout');
    const consumersDrainedMs: Record<string, number> = {};
    await Promise.all(
      Object.entries(CONSUMERS).map(async ([owner, durable]) => {
        const progress = consumerProgress(nats, stream, durable);
        try {
          if (!(await progress.settled(Number(position), 300_000))) throw new Error(`${owner} did not drain within 5 minutes`);
          consumersDrainedMs[owner] = performance.now() - burstEnd;
        } finally {
          progress.stop();
        }
      }),
    );
    const iso = since.toISOString();
    const outbox = await rows(
      target.checkoutDatabaseUrl,
      `SELECT msg_id, extract(epoch from created_at) * 1000, extract(epoch from published_at) * 1000 FROM outbox_messages WHERE created_at >= '${iso}' AND published_at IS NOT NULL`,
    );
    const created = new Map(outbox.map(([id, at]) => [id!, Number(at)]));
    const applied = await rows(
      target.customersDatabaseUrl,
      `SELECT msg_id, extract(epoch from processed_at) * 1000 FROM processed_messages WHERE consumer = '${CONSUMERS.customers}' AND processed_at >= '${iso}'`,
    );
    const customersLag = applied.flatMap(([id, at]) => (created.has(id!) ? [Number(at) - created.get(id!)!] : []));
    return {
      outboxDrainedMs,
      consumersDrainedMs,
      events: outbox.length,
      publishLag: percentiles(outbox.map(([, at, published]) => Number(published) - Number(at))),
      customersLag: percentiles(customersLag),
    };
  } finally {
    checkout.close();
    await nats.close();
  }
}
