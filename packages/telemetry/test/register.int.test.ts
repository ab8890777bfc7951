// Risk covered: telemetry that silently does nothing (ESM imports not instrumented because the hook
// came too late, an exporter ignoring OTEL_EXPORTER_OTLP_PROTOCOL=http/json), or telemetry that costs
// something when nobody asked for it (an SDK and propagation running without any OTEL_* endpoint).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, startOtlpReceiver, type OtlpReceiver } from '@hc/test-kit';

const REGISTER = fileURLToPath(new URL('../src/register.ts', import.meta.url));
const APP = fileURLToPath(new URL('./fixtures/http-app.ts', import.meta.url));

interface Hop {
  traceparent: string | null;
  sdkRegistered: boolean;
}

/** Runs the fixture as `node --import register app.ts` with exactly `env` of OTEL_* variables, calls /hop once. */
async function runApp(env: Record<string, string>, whileRunning: (pid: number) => Promise<void> = async () => undefined): Promise<Hop> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  const child = spawn(process.execPath, ['--import', REGISTER, APP], { env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const match = /URL=(\S+)/.exec(chunk.toString());
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`fixture exited with ${code}`)));
    });
    const hop = (await (await fetch(`${url}/hop`)).json()) as Hop;
    await whileRunning(child.pid!);
    return hop;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.stop());

describe('node --import @hc/telemetry/register', () => {
  it('with no OTEL_* variables starts no SDK and sends no traceparent', async () => {
    const hop = await runApp({});
    expect(hop).toEqual({ traceparent: null, sdkRegistered: false });
  });

  it('with OTEL_SDK_DISABLED=true starts nothing even with an endpoint', async () => {
    const hop = await runApp({ ...receiver.env('hc-disabled'), OTEL_SDK_DISABLED: 'true' });
    expect(hop).toEqual({ traceparent: null, sdkRegistered: false });
    expect(receiver.spans().filter((s) => s.service === 'hc-disabled')).toEqual([]);
  });

  it('with an OTLP endpoint and http/json exports the server, Express and fetch spans of one trace', async () => {
    const hop = await runApp(receiver.env('hc-fixture'));
    expect(hop.sdkRegistered).toBe(true);
    const traceId = /^00-([0-9a-f]{32})-/.exec(hop.traceparent ?? '')?.[1];
    expect(traceId).toBeDefined();
    const spans = await eventually(
      async () => receiver.spans().filter((s) => s.traceId === traceId),
      (found) => found.length >= 4,
    );
    expect(spans.map((s) => s.name)).toEqual(expect.arrayContaining(['GET /hop', 'GET /leaf', 'GET']));
    expect(spans.every((s) => s.service === 'hc-fixture')).toBe(true);
  });

  // ADR 0101: module.register ran the ESM hook on a loader thread, a second V8 isolate (about 55 MB
  // resident) in every traced process; Node 24's module.registerHooks runs it in the main thread.
  it('with an OTLP endpoint runs the ESM hook in the main thread: no worker thread, spans still exported', async () => {
    let threads: string[] = [];
    const hop = await runApp(receiver.env('hc-in-thread'), async (pid) => {
      threads = readdirSync(`/proc/${pid}/task`).map((task) => readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim());
    });
    expect(threads).toContain('MainThread');
    expect(threads).not.toContain('WorkerThread');
    const traceId = /^00-([0-9a-f]{32})-/.exec(hop.traceparent ?? '')?.[1];
    const spans = await eventually(
      async () => receiver.spans().filter((s) => s.traceId === traceId),
      (found) => found.length >= 4,
    );
    expect(spans.map((s) => s.name)).toEqual(expect.arrayContaining(['GET /hop', 'GET /leaf']));
  });

  it('exports the HTTP server duration histogram as an OTLP metric', async () => {
    const points = await eventually(
      async () => receiver.metricPoints().filter((p) => p.service === 'hc-fixture' && p.name === 'http.server.request.duration'),
      (found) => found.length > 0,
    );
    expect(points[0]!.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.route': expect.stringMatching(/^\/(hop|leaf)$/) });
  });

  it('with OTEL_METRICS_EXPORTER=prometheus serves the metrics for scraping and exports no spans', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    let scraped = '';
    const hop = await runApp(
      { OTEL_SERVICE_NAME: 'hc-scraped', OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_PORT: String(port) },
      async () => {
        scraped = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      },
    );
    expect(hop.traceparent).toBeNull();
    expect(scraped).toMatch(/^http_server_request_duration_count\{.*http_route="\/leaf".*\} 1/m);
  });
});
