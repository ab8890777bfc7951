// Risk covered: the gateway answering 500 internal_error when its own database (API keys, idempotency
// records) is briefly away — a restart, or a failover to the standby (docs/adr/0091) — where clients
// need the documented, retryable 503 service_unavailable. The error is node-postgres's own, from a
// real pool whose connection is cut the way HAProxy cuts it while no primary is up.
import { createServer, type AddressInfo } from 'node:net';
import { expect, it } from '@jest/globals';
import { createPool } from '@hc/db';
import { createLogger } from '@hc/logging';
import { captureLogs } from '@hc/test-kit';
import { failureAnswer } from '../src/api/http/middleware/errors.ts';

const request = { requestId: 'req_1', method: 'POST', path: '/v1/checkout_sessions' };

it('answers a lost database connection 503 service_unavailable (logged as a warning), and a bug still 500', async () => {
  const proxy = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const pool = createPool(`postgresql://postgres@127.0.0.1:${(proxy.address() as AddressInfo).port}/gateway`, { max: 1 });
  const logs = captureLogs();
  const logger = createLogger('gateway-test', { level: 'warn', destination: logs.destination });
  try {
    const lost = await pool.query('SELECT 1').then(
      () => undefined,
      (error: unknown) => error,
    );
    const answer = failureAnswer(logger, lost, request);
    expect([answer.status, answer.body.error.code]).toEqual([503, 'service_unavailable']);
    expect(logs.lines.map((line) => line['msg'])).toEqual(['database unavailable; answered 503']);
    expect(failureAnswer(logger, new Error('a bug'), request).status).toBe(500);
  } finally {
    await pool.end();
    proxy.close();
  }
});
