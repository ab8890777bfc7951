// Risk covered: chart:run waiting forever for "DNS on the network" because the names it checks in a pod
// are not the ones the pod calls: the gRPC addresses are `dns:///<headless Service>:<port>` targets
// (docs/adr/0092), and the check must look up their host, not the whole target. Runs the check's script
// with node on this machine, as chart:run runs it in a pod.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { NAMES_RESOLVE_SCRIPT } from '../chart-run/engine.ts';

const check = (env: Record<string, string>, ...names: string[]) =>
  spawnSync(process.execPath, ['-e', NAMES_RESOLVE_SCRIPT, ...names], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
  });

describe("chart:run's name check in a pod", () => {
  it('looks up the host of a dns:/// target and of a host:port, and skips the pod’s own listener', () => {
    const result = check(
      {
        CHECKOUT_GRPC_ADDRESS: 'dns:///localhost:50051',
        WEBHOOKS_GRPC_ADDRESS: 'localhost:50054',
        SETTLEMENT_GRPC_ADDRESS: '0.0.0.0:50052',
      },
      'localhost',
    );
    expect(result.status).toBe(0);
  });

  it('fails while a name of a dns:/// target does not resolve', () => {
    const result = check({ CHECKOUT_GRPC_ADDRESS: 'dns:///hc-no-such-service.invalid:50051' }, 'localhost');
    expect(result.status === 0).toBe(false);
  });
});
