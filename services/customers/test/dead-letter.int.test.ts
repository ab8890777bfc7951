// Risk covered: a checkout event whose payload breaks its contract being applied to customers and
// orders, skipped with a log line only, or retried for 20 minutes. It must be copied to the
// dead-letter stream, terminated, logged and counted (docs/adr/0022), and later events still applied.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import { connectNats, deadLetterStream, DEFAULT_EVENT_RETENTION, prefixedSubject, readDeadLetters, type NatsConnection } from '@hc/events';
import { createLogger } from '@hc/logging';
import { captureLogs, captureMetrics, eventually, type MetricCapture } from '@hc/test-kit';
import { startCustomersEnv, type CustomersEnv } from './customers-env.ts';
import { checkoutEventSubject } from '@hc/events/contracts';

const logs = captureLogs();
const logger = createLogger('customers-dead-letter-test', { level: 'info', destination: logs.destination });
let meters: MetricCapture;
let env: CustomersEnv;
let nc: NatsConnection;

beforeAll(async () => {
  meters = captureMetrics();
  env = await startCustomersEnv(logger, 'cu-dl');
  nc = await connectNats(env.stack.natsUrl, 'customers-dead-letter-test');
});

afterAll(async () => {
  await nc.close();
  await env.stop();
  await meters.stop();
});

it('dead-letters a session event that breaks its contract, with a log line and a metric', async () => {
  const prefix = env.stack.natsPrefix;
  const bad = {
    type: 'session.created',
    id: 'pay_x.session.created',
    occurredAt: 1,
    accountId: 'acct_1',
    livemode: false,
    session: { id: 'pay_x', amount: 40 },
  };
  await jetstream(nc).publish(prefixedSubject(prefix, checkoutEventSubject('session.created', 'pay_x')), JSON.stringify(bad), {
    msgID: 'bad-session',
  });
  const letters = await eventually(
    () => readDeadLetters(nc, deadLetterStream(prefix, DEFAULT_EVENT_RETENTION).name),
    (found) => found.some((l) => l.headers['Hc-Dead-Letter-Msg-Id'] === 'bad-session'),
    30_000,
  );
  expect(letters.map((l) => [l.subject, l.headers['Hc-Dead-Letter-Msg-Id']])).toEqual([
    [prefixedSubject(prefix, 'deadletter.customers'), 'bad-session'],
  ]);
  expect(JSON.parse(letters[0]!.data)).toEqual(bad);
  await eventually(
    async () => logs.lines.filter((l) => l['msg'] === 'event consumer: payload breaks its event contract; dead-lettered').length,
    (n) => n === 1,
  );
  expect(await meters.counter('hc.consumer.dead_lettered', { consumer: 'customers' })).toBe(1);
});
