import { jetstreamManager, type ConsumerInfo, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';
import type { OutboxRelay } from './relay.ts';

/**
 * Read-your-writes barriers across bounded contexts (docs/adr/0011). A producer answers "where is my
 * stream now?" with a JetStream stream sequence that covers every outbox row committed before the
 * question; a consumer's side then waits until its durable consumer has settled (acked or given up)
 * everything up to that sequence. Both are bounded waits: `null` / `false` mean "not yet".
 */

/** How often a waiter re-reads consumer state when nothing woke it (a wake from another replica's ack is not seen). */
export const PROGRESS_POLL_MS = 20;

export interface OutboxPositionOptions {
  /** The service's own database (the one holding outbox_messages). */
  databaseUrl: string;
  nats: NatsConnection;
  /** The stream this service's relay publishes to. */
  stream: string;
  /** This process's relay: its batches are what publish the rows (or another replica's, seen by polling). */
  relay: Pick<OutboxRelay, 'afterNextBatch'>;
}

export interface OutboxPosition {
  /**
   * A stream sequence at or above every message from outbox rows committed before the call, once
   * they are all published; null if they are not published within `timeoutMs` (NATS or relay down).
   */
  current(timeoutMs: number): Promise<number | null>;
  close(): Promise<void>;
}

export function outboxPosition(options: OutboxPositionOptions): OutboxPosition {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => undefined);
  let jsm: Promise<JetStreamManager> | undefined;
  return {
    async current(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      // Rows committed later are not the caller's answered writes; only the ones visible now matter.
      const newest = await pool.query<{ seq: string | null }>(
        'SELECT max(seq)::text AS seq FROM outbox_messages WHERE published_at IS NULL',
      );
      const through = newest.rows[0]?.seq ?? null;
      while (through !== null) {
        const pending = await pool.query<{ pending: boolean }>(
          'SELECT EXISTS (SELECT 1 FROM outbox_messages WHERE published_at IS NULL AND seq <= $1::bigint) AS pending',
          [through],
        );
        if (!pending.rows[0]?.pending) break;
        const left = deadline - Date.now();
        if (left <= 0) return null;
        await Promise.race([options.relay.afterNextBatch(), delay(left)]);
      }
      // The relay marks a row published only after JetStream acked it, so the stream's last sequence now covers it.
      jsm ??= jetstreamManager(options.nats);
      const info = await (await jsm).streams.info(options.stream);
      return info.state.last_seq;
    },
    close: () => pool.end(),
  };
}

/**
 * True when the consumer has settled every message it filters up to `streamSeq`: its ack floor
 * passed it, or nothing it filters is pending or unacknowledged at all (a filtered consumer's ack
 * floor can stop below messages of other subjects).
 */
export function settledThrough(info: ConsumerInfo, streamSeq: number): boolean {
  return info.ack_floor.stream_seq >= streamSeq || (info.num_pending === 0 && info.num_ack_pending === 0);
}

export interface ConsumerProgress {
  /** Resolves true once the durable has settled everything up to `streamSeq`, false after `timeoutMs`. */
  settled(streamSeq: number, timeoutMs: number): Promise<boolean>;
  /** Something was acknowledged (e.g. by this process): re-read the consumer's state now. */
  wake(): void;
  stop(): void;
}

/**
 * Waits on one durable consumer's progress. Waiters share one read of the consumer's state at a
 * time, each answered first by a read that started after it arrived, re-read on wake() and otherwise
 * every PROGRESS_POLL_MS while anyone waits.
 */
export function consumerProgress(nats: NatsConnection, stream: string, durable: string): ConsumerProgress {
  const jsm = jetstreamManager(nats);
  // `after`: the reads started before the waiter arrived; only a later one may answer it (a read
  // that began earlier may predate the messages of its sequence and show "nothing pending").
  const waiters = new Set<{ seq: number; after: number; resolve: (ok: boolean) => void }>();
  let readsStarted = 0;
  let reading: Promise<ConsumerInfo | null> | undefined;
  let rereadWanted = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const readInfo = async (): Promise<ConsumerInfo | null> => {
    try {
      return await (await jsm).consumers.info(stream, durable);
    } catch {
      // Not created yet (the consuming service never ran) or NATS unreachable: not settled.
      return null;
    }
  };

  function check(): void {
    if (reading) {
      rereadWanted = true;
      return;
    }
    const read = ++readsStarted;
    reading = readInfo();
    void reading.then((info) => {
      reading = undefined;
      if (info) for (const waiter of waiters) if (read > waiter.after && settledThrough(info, waiter.seq)) waiter.resolve(true);
      if (rereadWanted && waiters.size > 0) {
        rereadWanted = false;
        check();
      }
    });
  }

  function schedulePoll(): void {
    if (timer || stopped) return;
    timer = setInterval(() => {
      if (waiters.size === 0) {
        clearInterval(timer);
        timer = undefined;
        return;
      }
      check();
    }, PROGRESS_POLL_MS);
    timer.unref();
  }

  return {
    async settled(streamSeq, timeoutMs) {
      if (timeoutMs <= 0 || stopped) {
        const info = await readInfo();
        return info !== null && settledThrough(info, streamSeq);
      }
      // A waiter's first answer is the next shared read (check()), which starts after it arrived:
      // the reads waiting together cost one consumer info, not one each (docs/adr/0097).
      return new Promise<boolean>((resolve) => {
        const waiter = {
          seq: streamSeq,
          after: readsStarted,
          resolve: (ok: boolean) => {
            clearTimeout(deadline);
            waiters.delete(waiter);
            resolve(ok);
          },
        };
        const deadline = setTimeout(() => waiter.resolve(false), timeoutMs);
        waiters.add(waiter);
        check();
        schedulePoll();
      });
    },
    wake() {
      if (waiters.size > 0) check();
    },
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      for (const waiter of waiters) waiter.resolve(false);
    },
  };
}

/**
 * Every durable consumer of the stream (each context that subscribes) has settled through
 * `streamSeq`; polled, because the consumers live in other services. For rare operator actions.
 */
export async function allConsumersSettled(nats: NatsConnection, stream: string, streamSeq: number, timeoutMs: number): Promise<boolean> {
  const jsm = await jetstreamManager(nats);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const consumers = await jsm.consumers.list(stream).next();
    if (consumers.every((info) => settledThrough(info, streamSeq))) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await delay(Math.min(left, PROGRESS_POLL_MS));
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
