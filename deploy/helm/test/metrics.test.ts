// Risk covered: Prometheus Operator objects that a platform team cannot use (issue 45, item 4): a
// ServiceMonitor that finds no Service with a metrics port, a service left unscraped (a new one added by
// its values block), objects rendered by default (a cluster without the Operator's CRDs would refuse the
// install), a ServiceMonitor on pods that serve no /metrics, typo'd keys accepted. Rendered by a real helm.
// That the rules' expressions match what the services serve: e2e/test/prometheus-rules.e2e.test.ts.
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { CHART, REQUIRED, ensureHelm, renderChart } from './render.ts';

interface Manifest {
  kind: string;
  metadata: { name: string; labels: Record<string, string> };
  spec: {
    selector?: Record<string, string> | { matchLabels: Record<string, string> };
    ports?: { name: string; port: number; targetPort: string }[];
    endpoints?: { port: string; path: string; interval: string }[];
    groups?: { rules: { alert: string; labels: Record<string, string> }[] }[];
    template?: { spec: { containers: { ports?: { name: string; containerPort: number }[] }[] } };
  };
}

let helm: string;
beforeAll(() => {
  helm = ensureHelm();
}, 180_000);
const render = (...args: string[]): Manifest[] => renderChart<Manifest>(helm, ...args);
const ON = [
  '--set',
  'telemetry.prometheus.enabled=true',
  '--set',
  'metrics.serviceMonitor.enabled=true',
  '--set',
  'metrics.prometheusRule.enabled=true',
];

describe('ServiceMonitor and PrometheusRule', () => {
  it('are not rendered by default', () => {
    const kinds = render('--set', 'telemetry.prometheus.enabled=true').map((m) => m.kind);
    expect(kinds).not.toContain('ServiceMonitor');
    expect(kinds).not.toContain('PrometheusRule');
  });

  it("scrape every Deployment's metrics port through a <name>-metrics Service, a new service included", () => {
    const manifests = render(...ON, '--set', 'emulator.enabled=true', '--set', 'emulator.noticeUrl=http://x:8091/notices');
    const deployments = manifests.filter((m) => m.kind === 'Deployment');
    const metricsServices = manifests.filter((m) => m.kind === 'Service' && m.metadata.labels['hosted-checkout.io/metrics'] === 'true');
    // The emulator (test clusters only) loads no telemetry: no metrics port, nothing to scrape.
    const scraped = deployments.filter((d) => !d.metadata.name.endsWith('-emulator'));
    expect(scraped.length).toBe(deployments.length - 1);
    expect(metricsServices.map((s) => s.metadata.name).sort()).toEqual(scraped.map((d) => `${d.metadata.name}-metrics`).sort());
    for (const service of metricsServices) {
      expect(service.spec.ports).toEqual([{ name: 'metrics', port: 9464, targetPort: 'metrics', protocol: 'TCP' }]);
      const pods = deployments.find((d) => `${d.metadata.name}-metrics` === service.metadata.name)!;
      expect(pods.spec.template!.spec.containers[0]!.ports).toContainEqual({ name: 'metrics', containerPort: 9464, protocol: 'TCP' });
    }
    const monitor = manifests.find((m) => m.kind === 'ServiceMonitor')!;
    expect(monitor.spec.selector).toEqual({ matchLabels: { 'app.kubernetes.io/instance': 'pay', 'hosted-checkout.io/metrics': 'true' } });
    expect(monitor.spec.endpoints).toEqual([{ port: 'metrics', path: '/metrics', interval: '30s', scrapeTimeout: '10s' }]);
  });

  it('pages for each alert, with the labels the Prometheus instance selects by', () => {
    const manifests = render(
      ...ON,
      '--set',
      'metrics.prometheusRule.labels.release=kube-prometheus-stack',
      '--set',
      'metrics.prometheusRule.alertLabels.team=payments',
    );
    const rule = manifests.find((m) => m.kind === 'PrometheusRule')!;
    expect(rule.metadata.labels['release']).toBe('kube-prometheus-stack');
    const alerts = rule.spec.groups!.flatMap((g) => g.rules);
    expect(alerts.map((a) => a.alert)).toEqual([
      'HostedCheckoutGateway5xx',
      'HostedCheckoutGrpcErrors',
      'HostedCheckoutOutboxLag',
      'HostedCheckoutConsumerLag',
      'HostedCheckoutWebhookBacklog',
      'HostedCheckoutWebhookOldestUndelivered',
      'HostedCheckoutSettlementVerdictsStuck',
      'HostedCheckoutMailQueueAge',
    ]);
    for (const alert of alerts) expect(alert.labels).toEqual({ severity: 'page', team: 'payments' });
  });

  it('refuse a ServiceMonitor on pods without /metrics, and typo’d keys, by name', () => {
    const template = (...args: string[]) => spawnSync(helm, ['template', 'pay', CHART, ...REQUIRED, ...args], { encoding: 'utf8' });
    const unscraped = template('--set', 'metrics.serviceMonitor.enabled=true');
    expect(unscraped.status).not.toBe(0);
    expect(unscraped.stderr).toContain('metrics.serviceMonitor.enabled needs telemetry.prometheus.enabled=true');
    const typos: Record<string, string> = {
      'metrics.serviceMonitor.enable=true': 'enable',
      'metrics.prometheusRule.thresholds.gateway5xx=0.1': 'gateway5xx',
      'metrics.prometheusrule.enabled=true': 'prometheusrule',
    };
    for (const [typo, key] of Object.entries(typos)) {
      const refused = template('--set', typo);
      expect({ typo, status: refused.status }).toEqual({ typo, status: 1 });
      expect(refused.stderr).toContain(`Additional property ${key} is not allowed`);
    }
  });
});
