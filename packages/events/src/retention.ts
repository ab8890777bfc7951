import { ConfigError } from '@hc/config';
import type { Logger } from '@hc/logging';
import { DEFAULT_DUPLICATE_WINDOW_MS } from './nats.ts';

/**
 * How long the event plumbing keeps what it keeps (docs/personal-data.md, ADR 0017). Every service
 * that creates a stream, relays an outbox or records processed messages reads these four variables,
 * with the same values everywhere (they are one setting of the deployment, not of a service).
 */
export interface EventRetention {
  /** JetStream drops a message this long after it was stored (every stream's `max_age`). */
  EVENTS_STREAM_MAX_AGE_MS: number;
  /** Published outbox rows are deleted this long after publication (unpublished rows never are). */
  EVENTS_OUTBOX_RETENTION_MS: number;
  /** Processed-message records are deleted after this long: more than the stream keeps a message. */
  EVENTS_PROCESSED_RETENTION_MS: number;
  /** How often the purges run. */
  EVENTS_PURGE_INTERVAL_MS: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A processed record outlives the last possible redelivery of its message by at least this. */
export const PROCESSED_RETENTION_MARGIN_MS = DAY;

/** The properties to spread into a service's config schema (loadConfig, @hc/config). */
export const EVENT_RETENTION_SCHEMA_PROPERTIES = {
  EVENTS_STREAM_MAX_AGE_MS: { type: 'integer', minimum: 10 * MINUTE, maximum: 365 * DAY, default: 7 * DAY },
  EVENTS_OUTBOX_RETENTION_MS: { type: 'integer', minimum: MINUTE, maximum: 365 * DAY, default: DAY },
  EVENTS_PROCESSED_RETENTION_MS: { type: 'integer', minimum: DAY, maximum: 400 * DAY, default: 14 * DAY },
  EVENTS_PURGE_INTERVAL_MS: { type: 'integer', minimum: 1_000, maximum: DAY, default: 10 * MINUTE },
} as const;

export const EVENT_RETENTION_KEYS = Object.keys(EVENT_RETENTION_SCHEMA_PROPERTIES) as (keyof EventRetention)[];

/** The defaults, as a service gets them with no variable set. */
export const DEFAULT_EVENT_RETENTION: EventRetention = {
  EVENTS_STREAM_MAX_AGE_MS: EVENT_RETENTION_SCHEMA_PROPERTIES.EVENTS_STREAM_MAX_AGE_MS.default,
  EVENTS_OUTBOX_RETENTION_MS: EVENT_RETENTION_SCHEMA_PROPERTIES.EVENTS_OUTBOX_RETENTION_MS.default,
  EVENTS_PROCESSED_RETENTION_MS: EVENT_RETENTION_SCHEMA_PROPERTIES.EVENTS_PROCESSED_RETENTION_MS.default,
  EVENTS_PURGE_INTERVAL_MS: EVENT_RETENTION_SCHEMA_PROPERTIES.EVENTS_PURGE_INTERVAL_MS.default,
};

/**
 * The rules between the values, which a schema cannot say; call it after loadConfig. A processed
 * record deleted while its message can still be redelivered would let that message apply twice, so
 * records must outlive the stream's retention (plus a margin); and NATS refuses a duplicate window
 * longer than the max age.
 */
export function checkEventRetention<T extends EventRetention>(config: T): T {
  if (config.EVENTS_PROCESSED_RETENTION_MS < config.EVENTS_STREAM_MAX_AGE_MS + PROCESSED_RETENTION_MARGIN_MS) {
    throw new ConfigError(
      'Invalid configuration: EVENTS_PROCESSED_RETENTION_MS must exceed EVENTS_STREAM_MAX_AGE_MS by at least a day ' +
        '(a message still in the stream could otherwise be applied twice)',
    );
  }
  if (config.EVENTS_STREAM_MAX_AGE_MS <= DEFAULT_DUPLICATE_WINDOW_MS) {
    throw new ConfigError('Invalid configuration: EVENTS_STREAM_MAX_AGE_MS must exceed the 2-minute duplicate window');
  }
  return config;
}

/** One periodic deletion: returns how many rows (or messages) it removed. */
export interface PurgeJob {
  name: string;
  run(): Promise<number>;
}

export interface PurgeSchedule {
  /** Runs every job once now (after any run in progress); resolves with what each removed. */
  runOnce(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/**
 * Runs `jobs` one after another every `intervalMs`, the first time right away. A failing job is
 * logged and retried at the next run; it never stops the others or the process. Replicas may all
 * run it: the purges delete in slices by primary key, and two deleting the same rows just wait on
 * each other.
 */
export function startPurgeSchedule(jobs: readonly PurgeJob[], intervalMs: number, logger: Logger): PurgeSchedule {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<Record<string, number>> = Promise.resolve({});

  const runAll = async (): Promise<Record<string, number>> => {
    const removed: Record<string, number> = {};
    for (const job of jobs) {
      if (stopped) break;
      try {
        removed[job.name] = await job.run();
        if (removed[job.name]! > 0) logger.info({ job: job.name, removed: removed[job.name] }, 'retention purge');
      } catch (error) {
        logger.error({ job: job.name, err: error }, 'retention purge failed; retried at the next run');
      }
    }
    return removed;
  };
  const runOnce = (): Promise<Record<string, number>> => {
    running = running.then(runAll, runAll);
    return running;
  };
  const tick = (): void => {
    void runOnce().finally(() => {
      if (!stopped) timer = setTimeout(tick, intervalMs);
    });
  };
  tick();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running.catch(() => undefined);
    },
  };
}
