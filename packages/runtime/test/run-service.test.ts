// Risk covered: a service restarted while PostgreSQL fails over (or JetStream elects its leaders) meets
// the database's end mid-start; it used to exit, and the supervisor counted a death the fault did not
// explain (docs/adr/0099, addendum). startWhileAway starts it again; a start failing for any other
// reason still fails at once.
import { describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { startWhileAway } from '../src/run-service.ts';

const logger = createLogger('run-service-test', { level: 'silent' });

/** A start that fails with each of `failures` in turn, then starts. */
function flakyStart(failures: unknown[]) {
  const calls = { count: 0 };
  const start = async () => {
    calls.count += 1;
    const failure = failures.shift();
    if (failure !== undefined) throw failure;
    return { stop: async () => undefined };
  };
  return { calls, start };
}

describe('startWhileAway', () => {
  it('starts again after a start that met the database going away, and after a JetStream request unanswered', async () => {
    const lost = new Error('Connection terminated unexpectedly');
    const noQuorum = Object.assign(new Error('timeout'), { name: 'JetStreamNotEnabled' });
    const { calls, start } = flakyStart([lost, noQuorum]);
    await expect(startWhileAway({ name: 'webhooks', start }, logger)).resolves.toBeDefined();
    expect(calls.count).toBe(3);
  });

  it('fails at once on anything else', async () => {
    const { calls, start } = flakyStart([new Error('WEBHOOKS_LEASE must exceed WEBHOOKS_DELIVERY_TIMEOUT')]);
    await expect(startWhileAway({ name: 'webhooks', start }, logger)).rejects.toThrow('WEBHOOKS_LEASE');
    expect(calls.count).toBe(1);
  });

  it('gives up when the database stays away past the start wait', async () => {
    const { calls, start } = flakyStart(Array.from({ length: 10 }, () => new Error('Connection terminated unexpectedly')));
    await expect(startWhileAway({ name: 'webhooks', start, startWaitMs: 1_200 }, logger)).rejects.toThrow('Connection terminated');
    expect(calls.count).toBeLessThanOrEqual(3);
  });
});
