// Risk covered: the outbox relay losing, duplicating or reordering events — rows reaching JetStream out
// of seq order or without Nats-Msg-Id, a row published before a crash (not yet marked) reaching
// consumers twice, two replicas publishing one row twice, a NOTIFY not waking the relay, and old
// rows never being purged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  consumeDurable,
  contextStream,
  contextSubjects,
  DEFAULT_EVENT_RETENTION,
  ensureStream,
  OUTBOX_NOTIFY_TRIGGER_SQL,
  prefixedSubject,
  purgePublished,
  RELAY_APPLICATION_NAME,
  startOutboxRelay,
  type ConsumedMessage,
} from '../src/index.ts';
import { jetstream, msgIdOf, setUp, streamMessages, unpublishedCount, until, writeOutbox, type Fixture } from './support.ts';

let f: Fixture;
beforeAll(async () => {
  f = await setUp('relay');
});
afterAll(async () => {
  await f.close();
});

/** Each test uses its own subject segment so stream contents can be told apart. */
function rows(tag: string, n: number): { msgId: string; subject: string; payload: unknown }[] {
  return Array.from({ length: n }, (_, i) => ({ msgId: `${tag}-${i}`, subject: `checkout.${tag}.event`, payload: { tag, i } }));
}

async function published(tag: string): Promise<{ msgId: string | undefined; subject: string; data: unknown }[]> {
  const all = await streamMessages(f.nc, f.stream);
  return all
    .filter((m) => m.subject === prefixedSubject(f.prefix, `checkout.${tag}.event`))
    .map((m) => ({ msgId: msgIdOf(m), subject: m.subject, data: m.json<unknown>() }));
}

describe('startOutboxRelay', () => {
  it('publishes rows in seq order, with the prefix and Nats-Msg-Id, and marks them published', async () => {
    const relay = await startOutboxRelay({ databaseUrl: f.db.url, nats: f.nc, subjectPrefix: f.prefix, logger: f.logger, batchSize: 7 });
    try {
      await writeOutbox(f.pool, rows('order', 10).slice(0, 4));
      await writeOutbox(f.pool, rows('order', 10).slice(4));
      await relay.drain();
    } finally {
      await relay.stop();
    }
    const got = await published('order');
    expect(got.map((m) => m.msgId)).toEqual(rows('order', 10).map((r) => r.msgId));
    expect(got[3]).toEqual({ msgId: 'order-3', subject: `${f.prefix}.checkout.order.event`, data: { tag: 'order', i: 3 } });
    expect(await unpublishedCount(f.pool)).toBe(0);
  });

  it('sends a batch at once yet keeps seq order when the stream refuses a row in its middle', async () => {
    // The stream takes small messages only for a while: row 2 (large) is refused, and rows 3–5, sent
    // with it in one batch, must not reach the stream before it does.
    const jsm = await jetstreamManager(f.nc);
    const config = (await jsm.streams.info(f.stream)).config;
    await jsm.streams.update(f.stream, { ...config, max_msg_size: 512 });
    const all = rows('window', 6).map((row, i) => (i === 2 ? { ...row, payload: { tag: 'window', i, pad: 'x'.repeat(2_000) } } : row));
    const relay = await startOutboxRelay({
      databaseUrl: f.db.url,
      nats: f.nc,
      subjectPrefix: f.prefix,
      logger: f.logger,
      maxBackoffMs: 200,
    });
    try {
      await writeOutbox(f.pool, all);
      await until(() => f.logs.some((l) => String(l['msg']).includes('publishing failed')));
      expect((await published('window')).map((m) => m.msgId)).toEqual(['window-0', 'window-1']);
      expect(await unpublishedCount(f.pool)).toBe(4);
      await jsm.streams.update(f.stream, { ...config, max_msg_size: -1 });
      await relay.drain();
    } finally {
      await relay.stop();
      await jsm.streams.update(f.stream, { ...config, max_msg_size: -1 });
    }
    expect((await published('window')).map((m) => m.msgId)).toEqual(all.map((r) => r.msgId));
  });

  it('is woken by NOTIFY (and by the optional trigger) without waiting for its poll', async () => {
    const relay = await startOutboxRelay({
      databaseUrl: f.db.url,
      nats: f.nc,
      subjectPrefix: f.prefix,
      logger: f.logger,
      pollIntervalMs: 60_000,
      unlistenedPollIntervalMs: 60_000,
    });
    try {
      await writeOutbox(f.pool, rows('notify', 2));
      await until(async () => (await published('notify')).length === 2, 3_000);
      await f.pool.query(OUTBOX_NOTIFY_TRIGGER_SQL);
      await writeOutbox(f.pool, rows('trigger', 1), false);
      await until(async () => (await published('trigger')).length === 1, 3_000);

      // The database drops the relay's connections (restart, failover): it must re-LISTEN by itself.
      const killed = await f.pool.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
        [RELAY_APPLICATION_NAME],
      );
      expect(killed.rowCount).toBeGreaterThanOrEqual(1);
      await until(() => f.logs.some((l) => String(l['msg']).includes('LISTEN connection lost')), 3_000);
      await until(async () => {
        const listening = await f.pool.query(
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND query LIKE 'LISTEN%'",
          [RELAY_APPLICATION_NAME],
        );
        return listening.rowCount === 1;
      }, 3_000);
      await writeOutbox(f.pool, rows('relisten', 1));
      await until(async () => (await published('relisten')).length === 1, 3_000);
    } finally {
      await relay.stop();
    }
  });

  it('does not deliver twice a row that was published but not marked (crash before commit)', async () => {
    const [row] = rows('crash', 1);
    await writeOutbox(f.pool, [row!]);
    // The crash: JetStream acked the message, the relay died before COMMIT, the row is still unpublished.
    const first = await jetstream(f.nc).publish(prefixedSubject(f.prefix, row!.subject), JSON.stringify(row!.payload), {
      msgID: row!.msgId,
    });
    expect(first.duplicate).toBe(false);

    const relay = await startOutboxRelay({ databaseUrl: f.db.url, nats: f.nc, subjectPrefix: f.prefix, logger: f.logger });
    await relay.drain();
    await relay.stop();
    expect(await unpublishedCount(f.pool)).toBe(0);
    expect(f.logs.some((l) => l['msgId'] === 'crash-0' && String(l['msg']).includes('already had'))).toBe(true);
    expect(await published('crash')).toHaveLength(1);

    const seen: ConsumedMessage[] = [];
    const consumer = await consumeDurable({
      nats: f.nc,
      stream: f.stream,
      durable: 'crash-reader',
      filterSubject: prefixedSubject(f.prefix, 'checkout.crash.>'),
      logger: f.logger,
      handle: async (m) => void seen.push(m),
    });
    await until(() => seen.length === 1);
    await consumer.stop();
    expect(seen).toEqual([
      { msgId: 'crash-0', subject: `${f.prefix}.checkout.crash.event`, data: { tag: 'crash', i: 0 }, redelivered: false },
    ]);
  });

  it('publishes each row once, in order, when two relays share one database', async () => {
    const options = { databaseUrl: f.db.url, nats: f.nc, subjectPrefix: f.prefix, logger: f.logger, batchSize: 5, pollIntervalMs: 5 };
    const relays = await Promise.all([startOutboxRelay(options), startOutboxRelay(options)]);
    try {
      const all = rows('pair', 60);
      // Written while both run, in several transactions, so both relays compete for them.
      for (let i = 0; i < all.length; i += 10) await writeOutbox(f.pool, all.slice(i, i + 10));
      await Promise.all(relays.map((r) => r.drain()));
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
    const got = await published('pair');
    expect(got.map((m) => m.msgId)).toEqual(rows('pair', 60).map((r) => r.msgId));
    // No copy was even offered to the stream: a second publish would have been logged as a duplicate.
    expect(f.logs.some((l) => String(l['msgId']).startsWith('pair-') && String(l['msg']).includes('already had'))).toBe(false);
  });

  it('ensureStream creates once and then updates in place, keeping the messages', async () => {
    const before = await (await jetstreamManager(f.nc)).streams.info(f.stream);
    const subjects = [contextSubjects(f.prefix, 'checkout')];
    const info = await ensureStream(f.nc, { name: f.stream, subjects, duplicateWindowMs: 60_000, maxAgeMs: 3_600_000 });
    expect(info.config).toMatchObject({ storage: 'file', duplicate_window: 60_000 * 1e6, max_age: 3_600_000 * 1e6, subjects });
    expect(info.state.messages).toBe(before.state.messages);
    const back = await ensureStream(f.nc, contextStream(f.prefix, 'checkout', DEFAULT_EVENT_RETENTION));
    expect(back.config).toMatchObject({ duplicate_window: 120_000 * 1e6, max_age: 7 * 24 * 3_600_000 * 1e6 });
  });

  it('ensureStream refuses a stream kept forever or shorter than its duplicate window', async () => {
    const subjects = [contextSubjects(f.prefix, 'checkout')];
    await expect(ensureStream(f.nc, { name: f.stream, subjects, maxAgeMs: 0 })).rejects.toThrow(/maxAgeMs/);
    await expect(ensureStream(f.nc, { name: f.stream, subjects, maxAgeMs: 60_000 })).rejects.toThrow(/duplicate window/);
  });

  it('purges published rows older than the given age, never unpublished ones', async () => {
    await f.pool.query("UPDATE outbox_messages SET published_at = now() - interval '2 hours' WHERE msg_id LIKE 'order-%'");
    await writeOutbox(f.pool, rows('pending', 1), false);
    const before = await f.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_messages');
    expect(await purgePublished(f.db.url, 60 * 60_000)).toBe(10);
    expect(await purgePublished(f.pool, 60 * 60_000)).toBe(0);
    const after = await f.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_messages');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n - 10);
    expect(await unpublishedCount(f.pool)).toBe(1);
  });
});
