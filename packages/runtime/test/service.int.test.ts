// Risk covered: the service skeleton starts a part before what it needs, leaves connections or timers
// behind when a start fails half-way (the process then hangs or leaks into the next test), or stops
// the database before the parts that still use it. Real PostgreSQL (the outbox relay's connections),
// NATS and gRPC.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { createTestDatabase, openTestPool, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import type pg from 'pg';
import { startService, type Stoppable } from '../src/service-index.ts';

const MIGRATIONS = join(import.meta.dirname, '..', '..', 'events', 'test', 'fixtures', 'migrations');
const logger = createLogger('runtime-test', { level: 'silent' });
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase('runtime', MIGRATIONS);
});
afterAll(async () => {
  await db.drop();
});

/** A part that writes its start and stop into `log`. */
function part(log: string[], name: string): Stoppable {
  log.push(`start ${name}`);
  return { stop: () => void log.push(`stop ${name}`) };
}

async function relayConnections(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'hc-outbox-relay'`,
  );
  return rows[0]!.n;
}

function definition(log: string[], prefix: string) {
  return {
    name: 'runtime-test',
    logger,
    database: {
      open: async () => {
        log.push('start database');
        return openTestPool(db.url, 2);
      },
      close: async (pool: pg.Pool) => {
        log.push('stop database');
        await pool.end();
      },
    },
    dependencies: () => ({ greeting: 'hello' }),
    events: {
      natsUrl: testNatsUrl(),
      relay: { databaseUrl: db.url, subjectPrefix: prefix },
    },
    jobs: () => ({ sweeper: part(log, 'job') }),
    listeners: () => ({ notices: part(log, 'listener') }),
    grpc: { address: '127.0.0.1:0', register: () => log.push('register grpc'), graceMs: 100 },
  };
}

describe('startService', () => {
  it('starts database, dependencies, NATS and relay, jobs, consumers, listeners, gRPC in that order and stops them in reverse', async () => {
    const log: string[] = [];
    const service = await startService({
      ...definition(log, testNatsPrefix('runtime-order')),
      consumers: () => ({ events: part(log, 'consumer') }),
    });
    expect(service.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(service.deps).toEqual({ greeting: 'hello' });
    expect(service.life.started).toEqual([
      'database',
      'nats',
      'outbox relay',
      'job sweeper',
      'consumer events',
      'listener notices',
      'grpc',
    ]);
    expect(await relayConnections(service.database)).toBeGreaterThan(0);
    const probe = openTestPool(db.url, 1);
    await service.stop();
    await service.stop(); // a second stop waits for the first, stops nothing twice
    expect(log).toEqual([
      'start database',
      'start job',
      'start consumer',
      'start listener',
      'register grpc',
      'stop listener',
      'stop consumer',
      'stop job',
      'stop database',
    ]);
    expect(service.nats.isClosed()).toBe(true);
    expect(await relayConnections(probe)).toBe(0);
    await probe.end();
  });

  it('stops what started when a later part fails to start, and rethrows', async () => {
    const log: string[] = [];
    const failing = startService({
      ...definition(log, testNatsPrefix('runtime-failure')),
      consumers: () => {
        throw new Error('stream missing');
      },
    });
    await expect(failing).rejects.toThrow('stream missing');
    expect(log).toEqual(['start database', 'start job', 'stop job', 'stop database']);
    const probe = openTestPool(db.url, 1);
    expect(await relayConnections(probe)).toBe(0);
    await probe.end();
  });

  it('starts a service without a database slot: nothing opened, the slots see no database', async () => {
    const log: string[] = [];
    const seen: unknown[] = [];
    const service = await startService({
      name: 'runtime-test-no-database',
      logger,
      dependencies: (database) => {
        seen.push(database);
        return { greeting: 'hello' };
      },
      listeners: ({ database }) => {
        seen.push(database);
        return { http: part(log, 'listener') };
      },
    });
    expect(service.database).toBeUndefined();
    expect(seen).toEqual([undefined, undefined]);
    expect(service.life.started).toEqual(['listener http']);
    await service.stop();
    expect(log).toEqual(['start listener', 'stop listener']);
  });
});
