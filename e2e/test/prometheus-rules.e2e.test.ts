// Risk covered: alerts that never fire (issue 45, item 4): a PrometheusRule whose expressions name
// metrics no service serves (a unit suffix the exporter does not add, a renamed instrument), select
// labels the series do not carry, or are not valid PromQL. It proves, against a running platform (every
// service a process of its own, /metrics from OpenTelemetry's Prometheus exporter as in a pod): every
// metric the chart's rules use is in the real scrape; `promtool check rules` accepts the rendered rules;
// `promtool test rules`, with series whose names and labels come from that scrape (plus the job and
// namespace labels the ServiceMonitor gives them), finds the scraped platform quiet and fires each alert
// on its fault. promtool is Debian's (scripts/ensure-promtool.sh), helm the real one (ensure-helm.sh).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NOTIFICATIONS_MIGRATIONS_DIR } from '@hc/notifications';
import { createTestDatabase, eventually, freePort, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import { parseAllDocuments, stringify } from 'yaml';
import { faultTests, parseScrape, type Series } from './prometheus-faults.ts';
import { startService, startTracedPlatform, type ServiceProcess, type TracedPlatform } from './traced-processes.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVICES = ['gateway', 'checkout', 'settlement', 'customers', 'webhooks', 'notifications'];
/** The job label a series gets through the chart's ServiceMonitor (release pay): its `<name>-metrics` Service. */
const jobOf = (service: string): string => `pay-hosted-checkout-${service}-metrics`;

const ports = new Map<string, number>();
const prometheusEnv = (serviceName: string): Record<string, string> => ({
  OTEL_SERVICE_NAME: serviceName,
  OTEL_METRICS_EXPORTER: 'prometheus',
  OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
  OTEL_EXPORTER_PROMETHEUS_PORT: String(ports.get(serviceName)),
});

async function scrape(service: string): Promise<string> {
  return (await fetch(`http://127.0.0.1:${ports.get(`hc-${service}`)}/metrics`)).text();
}

let platform: TracedPlatform;
let notifications: ServiceProcess;
let notificationsDb: TestDatabase;
let scraped: Series[];
let rules: { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> };
let work: string;
let promtool: string;

/** Traffic that makes every instrument report: API requests (one refused), a payment to paid, a webhook that cannot be delivered. */
async function traffic(): Promise<void> {
  const merchant = await platform.merchant();
  // Port 9 (discard) refuses: the deliveries stay pending, so the backlog gauges report them.
  await platform.operator('webhooks', 'endpoints', 'add', merchant.accountId, '--mode', 'test', '--url', 'http://127.0.0.1:9/hook');
  const headers = { authorization: `Bearer ${merchant.testKey}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${platform.gatewayUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const session = await call('POST', '/v1/checkout_sessions', {
    amount: '5.00',
    currency: 'usd',
    description: 'Mug',
    customer_email: 'a@example.com',
  });
  await call('POST', `/v1/checkout_sessions/${String(session['id'])}/start`, { country: 'de' });
  await call('POST', `/v1/payments/${String(session['id'])}/simulate`, { outcome: 'paid' });
  await call('GET', '/v1/payments/pay_missing');
}

beforeAll(async () => {
  promtool = execFileSync('bash', [join(ROOT, 'scripts/ensure-promtool.sh')], { encoding: 'utf8' }).trim();
  const helm = execFileSync('bash', [join(ROOT, 'scripts/ensure-helm.sh')], { encoding: 'utf8' }).trim();
  const rendered = execFileSync(
    helm,
    [
      'template',
      'pay',
      join(ROOT, 'deploy/helm/hosted-checkout'),
      '--namespace',
      'payments',
      '-f',
      join(ROOT, 'deploy/helm/hosted-checkout/ci/test-values.yaml'),
    ].concat(['--set', 'metrics.serviceMonitor.enabled=true', '--set', 'metrics.prometheusRule.enabled=true']),
    { encoding: 'utf8' },
  );
  const rule = parseAllDocuments(rendered)
    .map((d) => d.toJS() as { kind?: string; spec?: typeof rules } | null)
    .find((m) => m?.kind === 'PrometheusRule');
  rules = rule!.spec!;
  work = mkdtempSync(join(tmpdir(), 'hc-prometheus-rules-'));

  for (const name of SERVICES) ports.set(`hc-${name}`, await freePort());
  platform = await startTracedPlatform({ env: prometheusEnv });
  notificationsDb = await createTestDatabase('notifications', NOTIFICATIONS_MIGRATIONS_DIR);
  notifications = await startService('notifications', {
    ...prometheusEnv('hc-notifications'),
    NOTIFICATIONS_DATABASE_URL: notificationsDb.url,
    NOTIFICATIONS_GRPC_ADDRESS: '127.0.0.1:0',
    NATS_URL: testNatsUrl(),
    NATS_SUBJECT_PREFIX: testNatsPrefix('traces'),
    PUBLIC_BASE_URL: 'https://pay.example.test',
    DASHBOARD_GRPC_ADDRESS: '127.0.0.1:9',
    ...{ SMTP_HOST: '127.0.0.1', SMTP_PORT: '9', SMTP_SECURITY: 'none' },
  });
  await traffic();
  // Wait for what is asynchronous: the verdict reaching checkout, the webhook attempts failing.
  const settled = await eventually(
    async () => scrape('webhooks'),
    (text) => /hc_webhooks_attempts_total\{verdict="failed",webhook_event_type="payment\.paid"/.test(text),
    60_000,
  );
  if (!settled) throw new Error('the webhook attempts never reported');
  scraped = [];
  for (const service of SERVICES) scraped.push(...parseScrape(await scrape(service), { namespace: 'payments', job: jobOf(service) }));
}, 300_000);

afterAll(async () => {
  await notifications?.stop();
  await notificationsDb?.drop();
  await platform?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Metric names in the rules' expressions: every identifier followed by a label selector. */
function metricsUsed(): Set<string> {
  const exprs = rules.groups.flatMap((g) => g.rules.map((r) => r.expr));
  return new Set(exprs.flatMap((e) => [...e.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\{/g)].map((m) => m[1]!)));
}

function promtoolRun(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(promtool, args, { encoding: 'utf8', cwd: work });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("the chart's PrometheusRule, against a running platform's metrics", () => {
  it('uses only metrics the services serve on /metrics', () => {
    const used = metricsUsed();
    expect(used.size).toBeGreaterThanOrEqual(7);
    const served = new Set(scraped.map((s) => s.name));
    expect([...used].filter((name) => !served.has(name))).toEqual([]);
  });

  it('has eight alerts, each labelled to page, and passes promtool check rules', () => {
    const alerts = rules.groups.flatMap((g) => g.rules);
    expect(alerts.map((r) => r.alert)).toHaveLength(8);
    writeFileSync(join(work, 'rules.yaml'), stringify(rules));
    const checked = promtoolRun('check', 'rules', 'rules.yaml');
    expect(checked).toEqual({ status: 0, output: expect.stringContaining('SUCCESS: 8 rules found') });
  });

  it('is quiet on the scraped platform and fires each alert on its fault (promtool test rules)', () => {
    writeFileSync(join(work, 'rules.yaml'), stringify(rules));
    const tests = { rule_files: ['rules.yaml'], evaluation_interval: '1m', tests: faultTests(scraped, metricsUsed(), jobOf, 'page') };
    writeFileSync(join(work, 'tests.yaml'), stringify(tests));
    const tested = promtoolRun('test', 'rules', 'tests.yaml');
    expect(tested).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
  });
});
