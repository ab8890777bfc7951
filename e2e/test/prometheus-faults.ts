/**
 * promtool unit tests of the chart's alerts (e2e/test/prometheus-rules.e2e.test.ts), built from series
 * a running platform served: each fault takes a scraped series (its name and labels) and gives it the
 * values of the fault; a series the fault needs that the scrape lacks fails the test that asks for it.
 */

export interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition, with `extra` labels on each (what the scrape adds). */
export function parseScrape(text: string, extra: Record<string, string>): Series[] {
  const series: Series[] = [];
  for (const line of text.split('\n')) {
    const match = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const l of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    series.push({ name: match[1]!, labels: { ...labels, ...extra }, value: Number(match[3]) });
  }
  return series;
}

/** promtool's series notation: name{label="value",…} (values are kept escaped as scraped). */
export function selector(s: Pick<Series, 'name' | 'labels'>): string {
  return `${s.name}{${Object.entries(s.labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',')}}`;
}

function find(scraped: Series[], name: string, labels: Record<string, string>): Series {
  const found = scraped.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (!found) throw new Error(`the scrape has no ${name} with ${JSON.stringify(labels)}: the rule's series does not exist`);
  return found;
}

interface InputSeries {
  series: string;
  values: string;
}
interface Fault {
  alert: string;
  input: InputSeries[];
  /** The labels the firing alert has (besides alertname, alertstate and the rule's severity). */
  labels: Record<string, string>;
}
const retag = (s: Series, labels: Record<string, string>): Series => ({ ...s, labels: { ...s.labels, ...labels } });
const input = (s: Series, values: string): InputSeries => ({ series: selector(s), values });

/** One fault per alert, from the scraped series of the job `jobOf(service)`. */
function faults(scraped: Series[], jobOf: (service: string) => string): Fault[] {
  const ns = { namespace: 'payments' };
  const gateway = find(scraped, 'http_server_request_duration_count', { job: jobOf('gateway') });
  const grpc = find(scraped, 'rpc_server_call_duration_count', { job: jobOf('checkout') });
  const outbox = find(scraped, 'hc_outbox_oldest_age', { job: jobOf('checkout') });
  const pending = find(scraped, 'hc_consumer_pending', { job: jobOf('webhooks'), consumer: 'webhooks_payment_events' });
  const depth = find(scraped, 'hc_queue_depth', { queue: 'webhooks.deliveries' });
  const webhookAge = find(scraped, 'hc_queue_oldest_age', { queue: 'webhooks.deliveries' });
  const verdicts = { job: jobOf('checkout'), consumer: 'checkout-settlement-verdicts' };
  const mailAge = find(scraped, 'hc_queue_oldest_age', { queue: 'notifications.mails' });
  return [
    {
      alert: 'HostedCheckoutGateway5xx',
      input: [input(gateway, '0+10x60'), input(retag(gateway, { http_response_status_code: '503' }), '0+10x60')],
      labels: { ...ns, job: jobOf('gateway') },
    },
    {
      alert: 'HostedCheckoutGrpcErrors',
      input: [input(grpc, '0+10x60'), input(retag(grpc, { rpc_grpc_status_code: '14' }), '0+10x60')],
      labels: { ...ns, job: jobOf('checkout') },
    },
    { alert: 'HostedCheckoutOutboxLag', input: [input(outbox, '0+60x60')], labels: { ...ns, job: jobOf('checkout') } },
    {
      alert: 'HostedCheckoutConsumerLag',
      input: [input(pending, '5000x60')],
      labels: { ...ns, job: jobOf('webhooks'), consumer: 'webhooks_payment_events' },
    },
    { alert: 'HostedCheckoutWebhookBacklog', input: [input(depth, '6000x60')], labels: ns },
    { alert: 'HostedCheckoutWebhookOldestUndelivered', input: [input(webhookAge, '0+600x60')], labels: ns },
    {
      alert: 'HostedCheckoutSettlementVerdictsStuck',
      input: [
        input(find(scraped, 'hc_consumer_pending', verdicts), '3x60'),
        input(find(scraped, 'hc_consumer_ack_pending', verdicts), '0x60'),
      ],
      labels: ns,
    },
    { alert: 'HostedCheckoutMailQueueAge', input: [input(mailAge, '0+120x60')], labels: ns },
  ];
}

/** The tests of a promtool test file: the scraped platform (values held) quiet, then each fault alone firing its alert. */
export function faultTests(scraped: Series[], used: Set<string>, jobOf: (service: string) => string, severity: string): unknown[] {
  const quiet = {
    interval: '1m',
    input_series: scraped.filter((s) => used.has(s.name)).map((s) => input(s, `${s.value}x60`)),
    promql_expr_test: [{ expr: 'ALERTS', eval_time: '60m', exp_samples: [] }],
  };
  return [
    quiet,
    ...faults(scraped, jobOf).map((f) => ({
      interval: '1m',
      input_series: f.input,
      promql_expr_test: [
        {
          expr: `ALERTS{alertstate="firing"}`,
          eval_time: '60m',
          exp_samples: [
            { labels: selector({ name: 'ALERTS', labels: { alertname: f.alert, alertstate: 'firing', severity, ...f.labels } }), value: 1 },
          ],
        },
      ],
    })),
  ];
}
