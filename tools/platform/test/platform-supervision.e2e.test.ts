// Risk covered: one crashed process takes the whole local platform down (issue 18: "webhooks exited
// unexpectedly … stopping"), the gateway hangs or answers a bare 500 while checkout is down, or a
// process that can never start is restarted forever without anyone being told why. The real start
// command (tools/platform/src/platform.ts) runs on free ports with its own databases, NATS prefix and state
// folder; a child is killed with SIGKILL, or made unable to start by taking its port.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@hc/test-kit';
import { killLeftovers, launchPlatform, platformSetting, stopPlatform, type PlatformSetting } from '../src/platform-process.ts';

const repository = join(import.meta.dirname, '..', '..', '..');
let home: string;
const settings: PlatformSetting[] = [];

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'hc-supervision-'));
});
afterAll(async () => {
  killLeftovers();
  await Promise.all(settings.map((setting) => setting.dropDatabases()));
  rmSync(home, { recursive: true, force: true });
});

async function launch(label: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const setting = await platformSetting(label);
  settings.push(setting);
  const env = { ...process.env, ...setting.env, PLATFORM_HOME: join(home, label), LOG_LEVEL: 'warn', ...extraEnv };
  return {
    setting,
    platform: launchPlatform(process.execPath, [join(repository, 'tools', 'platform', 'src', 'platform.ts')], {
      cwd: repository,
      env,
      timeoutMs: 120_000,
    }),
  };
}

/** A create as the README sends it: [status, body, milliseconds it took]. */
async function create(url: string, key: string): Promise<[number, Record<string, unknown>, number]> {
  const began = Date.now();
  const response = await fetch(`${url}/v1/checkout_sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: '19.9', currency: 'usd', description: 'Blue mug' }),
    signal: AbortSignal.timeout(20_000),
  });
  return [response.status, (await response.json()) as Record<string, unknown>, Date.now() - began];
}

describe('the local platform supervises its processes', () => {
  it('restarts checkout after a SIGKILL (and says so); meanwhile the gateway is not ready and answers 503 service_unavailable at once', async () => {
    const { platform } = await launch('supervise');
    const { printed } = await platform.ready;
    const url = String(printed['GATEWAY_URL']);
    const key = String(printed['TEST_SECRET_KEY']);
    const [pid] = (await platform.waitForStderr(/checkout started \(pid (\d+)\)/, 1000)).slice(1);

    const mark = platform.stderr().length;
    process.kill(Number(pid), 'SIGKILL');
    await platform.waitForStderr(/checkout exited unexpectedly \(SIGKILL\); restarting in 1 s \(crash 1 in a row\)/, 10_000, mark);
    // Checkout is down for the 1 s delay and its boot: readiness says so, requests are refused quickly.
    const [readiness, [status, body, tookMs]] = await Promise.all([fetch(`${url}/readyz`), create(url, key)]);
    expect(readiness.status).toBe(503);
    expect([status, body]).toEqual([503, { error: expect.objectContaining({ code: 'service_unavailable' }) }]);
    expect(tookMs).toBeLessThan(6000); // at most the gRPC deadline (GRPC_TIMEOUT_MS, 5 s): never a hang

    const [restartedPid] = (await platform.waitForStderr(/checkout started \(pid (\d+)\)/, 30_000, mark)).slice(1);
    expect(restartedPid).not.toBe(pid);
    const ready = await eventually(
      () => fetch(`${url}/readyz`).then((r) => r.status),
      (s) => s === 200,
      30_000,
    );
    expect(ready).toBe(200);
    const [after, session] = await eventually(
      () => create(url, key),
      ([s]) => s === 201,
      30_000,
    );
    expect([after, session['status']]).toEqual([201, 'open']);
    expect(platform.process.exitCode).toBeNull(); // nothing else was stopped
    expect(await stopPlatform(platform)).toBe(0);
  }, 240_000);

  it('gives up a process that crashes 5 times in a row, shows the end of its log, and stops the platform (exit 1)', async () => {
    // Five starts of a service plus 1 + 2 + 4 + 8 s of back-off can outlast the default 60 s readiness
    // wait on a loaded machine; the give-up, not the readiness timeout, must be what stops the platform.
    const { setting, platform } = await launch('crashloop', { PLATFORM_READY_TIMEOUT_S: '200' });
    // Settlement cannot bind its port: it crashes at every start.
    const [host, port] = String(setting.env['SETTLEMENT_GRPC_ADDRESS']).split(':');
    const squatter: Server = createServer();
    await new Promise<void>((resolve) => squatter.listen(Number(port), host, resolve));
    try {
      expect(await platform.exited()).toBe(1);
    } finally {
      squatter.close();
    }
    const stderr = platform.stderr();
    for (const delay of [1, 2, 4, 8]) expect(stderr).toContain(`settlement exited unexpectedly (code 1); restarting in ${delay} s`);
    expect(stderr).toMatch(
      /settlement keeps crashing \(5 times in a row, last: code 1\); not restarting it\. Last lines of .*settlement\.log:\n/,
    );
    expect(stderr).toMatch(/EADDRINUSE|address already in use|No address added out of total/i);
  }, 240_000);
});
