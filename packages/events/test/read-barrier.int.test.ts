// Risk covered: a read-your-writes barrier (docs/adr/0011) that lets a read through before an
// answered write's event is applied — a position taken before committed rows reach the stream, an
// "applied up to" fooled by out-of-order application (a message in redelivery while later ones are
// acked), or a filtered consumer that never counts as settled because of other subjects' messages.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  consumeDurable,
  consumerProgress,
  outboxPosition,
  prefixedSubject,
  startOutboxRelay,
  type ConsumedMessage,
  type OutboxRelay,
} from '../src/index.ts';
import { setUp, streamMessages, msgIdOf, writeOutbox, type Fixture } from './support.ts';

let f: Fixture;
let relay: OutboxRelay | undefined;
beforeAll(async () => {
  f = await setUp('barrier');
});
afterAll(async () => {
  await relay?.stop();
  await f.close();
});

const rows = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ msgId: `${tag}-${i}`, subject: `checkout.${tag}.event`, payload: { i } }));

/** A one-shot event the test awaits (instead of sleeping). */
function signal(): { wait: Promise<void>; fire: () => void } {
  let fire = (): void => undefined;
  const wait = new Promise<void>((resolve) => (fire = resolve));
  return { wait, fire };
}

/** Where the stream is once every committed row is published (through the running relay). */
async function positionNow(): Promise<number> {
  const position = outboxPosition({ databaseUrl: f.db.url, nats: f.nc, stream: f.stream, relay: relay! });
  try {
    const sequence = await position.current(5_000);
    if (sequence === null) throw new Error('rows not published within 5 s');
    return sequence;
  } finally {
    await position.close();
  }
}

describe('outboxPosition', () => {
  it('gives no position while committed rows are unpublished, then one at or above all of them', async () => {
    await writeOutbox(f.pool, rows('early', 3), false);
    // No relay runs yet: the rows stay unpublished, so no position can be promised.
    const idle = { afterNextBatch: () => new Promise<void>(() => undefined) };
    const withoutRelay = outboxPosition({ databaseUrl: f.db.url, nats: f.nc, stream: f.stream, relay: idle });
    expect(await withoutRelay.current(100)).toBeNull();
    await withoutRelay.close();

    relay = await startOutboxRelay({ databaseUrl: f.db.url, nats: f.nc, subjectPrefix: f.prefix, logger: f.logger });
    const position = outboxPosition({ databaseUrl: f.db.url, nats: f.nc, stream: f.stream, relay });
    const sequence = await position.current(5_000);
    await position.close();
    const published = (await streamMessages(f.nc, f.stream)).filter((m) => msgIdOf(m)?.startsWith('early-'));
    expect(published).toHaveLength(3);
    for (const m of published) expect(m.seq).toBeLessThanOrEqual(sequence!);
  });
});

describe('consumerProgress', () => {
  it('is not settled while an earlier message is in redelivery, though later ones were applied', async () => {
    const laterApplied = signal();
    let open = false;
    const applied: string[] = [];
    const progress = consumerProgress(f.nc, f.stream, 'ooo');
    const consumer = await consumeDurable({
      nats: f.nc,
      stream: f.stream,
      durable: 'ooo',
      filterSubject: prefixedSubject(f.prefix, 'checkout.ooo.>'),
      logger: f.logger,
      retryDelayMs: 20,
      onAcked: () => progress.wake(),
      handle: async (m: ConsumedMessage) => {
        if (m.msgId === 'ooo-0' && !open) throw new Error('order not yet known');
        applied.push(m.msgId);
        if (m.msgId === 'ooo-2') laterApplied.fire();
      },
    });
    try {
      await writeOutbox(f.pool, rows('ooo', 3));
      const sequence = await positionNow();
      await laterApplied.wait;
      expect(applied).not.toContain('ooo-0');
      expect(await progress.settled(sequence, 200)).toBe(false);

      open = true;
      expect(await progress.settled(sequence, 5_000)).toBe(true);
      expect([...applied].sort()).toEqual(['ooo-0', 'ooo-1', 'ooo-2']);
    } finally {
      progress.stop();
      await consumer.stop();
    }
  });

  it('counts a filtered consumer settled when later messages of other subjects sit above its floor', async () => {
    const handled = signal();
    const progress = consumerProgress(f.nc, f.stream, 'mine');
    const consumer = await consumeDurable({
      nats: f.nc,
      stream: f.stream,
      durable: 'mine',
      filterSubject: prefixedSubject(f.prefix, 'checkout.mine.>'),
      logger: f.logger,
      onAcked: () => handled.fire(),
      handle: async () => undefined,
    });
    try {
      await writeOutbox(f.pool, rows('mine', 1));
      await handled.wait;
      await writeOutbox(f.pool, rows('theirs', 2));
      const sequence = await positionNow();
      const info = await (await jetstreamManager(f.nc)).consumers.info(f.stream, 'mine');
      expect(info.ack_floor.stream_seq).toBeLessThan(sequence);
      expect(await progress.settled(sequence, 2_000)).toBe(true);
    } finally {
      progress.stop();
      await consumer.stop();
    }
  });
});
