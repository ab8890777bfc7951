// Risk covered (issue 44): `hosted-checkout listen` and `trigger` as a developer uses them — a secret
// that changes every run (the shop's .env breaks), --rotate that does not rotate, --events that
// crashes or lets other types through, --print-json mixing status into the JSON, an unknown flag
// answered with a stack trace, or a trigger that does not drive its payment to the event it names.
// Real gateway, checkout, settlement, webhooks, PostgreSQL, NATS, HTTP; the CLI as a real process.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TRIGGERS, verifyWebhook, type WebhookEvent } from '@hosted-checkout/sdk';
import { eventually } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

const CLI = fileURLToPath(new URL('../../packages/sdk/bin/hosted-checkout.ts', import.meta.url));
let platform: Platform;
let merchant: TestMerchant;
let env: NodeJS.ProcessEnv;
const running: ChildProcessWithoutNullStreams[] = [];

interface Cli {
  readonly child: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
}

function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Cli {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...env, ...extraEnv } });
  running.push(child);
  const run: Cli = { child, stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (run.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (run.stderr += chunk));
  return run;
}

async function finished(args: string[]): Promise<Cli & { code: number | null }> {
  const run = cli(args);
  const [code] = (await once(run.child, 'exit')) as [number | null];
  return Object.assign(run, { code });
}

/** Waits for "Ready" and answers how the secret was described (new, kept, rotated) and the secret. */
async function ready(run: Cli): Promise<{ kind: string; secret: string }> {
  const text = await eventually(
    async () => run.stdout + run.stderr,
    (output) => /Signing secret[^\n]*: whsec_\S+\n/.test(output) || run.child.exitCode !== null,
    20_000,
  );
  const match = /Signing secret \((new, rotated|new|kept) [^\n]*: (whsec_\S+)\n/.exec(text);
  if (!match) throw new Error(`listen did not start:\n${text}`);
  return { kind: match[1]!, secret: match[2]! };
}

async function stop(run: Cli): Promise<void> {
  run.child.kill('SIGINT');
  if (run.child.exitCode === null) await once(run.child, 'exit');
}

beforeAll(async () => {
  platform = await startPlatform({ webhooks: true });
  merchant = await platform.merchant();
  env = {
    ...process.env,
    TEST_SECRET_KEY: merchant.testKey,
    GATEWAY_URL: platform.url,
    XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'hc-listen-cli-')),
  };
}, 120_000);

afterAll(async () => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  await platform?.stop();
});

describe('hosted-checkout usage', () => {
  it.each([
    [['listen', '--forward-to', 'http://127.0.0.1:1/x', '--bogus'], /Unknown option '--bogus'/],
    [['listen', '--events'], /--events/],
    [['listen', '--print-json', '--events', 'payment.paid,payment.nope'], /unknown event type payment\.nope/],
    [['trigger', 'payment.refunded'], /trigger: which event\? one of payment\.started, payment\.paid/],
    [['listne'], /unknown command: listne/],
  ])('%j: exit 2 with a one-line reason, never a stack trace', async (args, reason) => {
    const run = await finished(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(reason);
    expect(run.stderr).not.toMatch(/\n\s+at |TypeError|node:internal/);
  });
});

describe('hosted-checkout listen and trigger', () => {
  it('keeps one secret across runs, changes it only on --rotate', async () => {
    const first = cli(['listen', '--print-json']);
    const made = await ready(first);
    await stop(first);
    expect(made.kind).toBe('new');
    const second = cli(['listen', '--print-json']);
    expect(await ready(second)).toEqual({ kind: 'kept', secret: made.secret });
    await stop(second);
    const rotated = cli(['listen', '--print-json', '--rotate']);
    const replaced = await ready(rotated);
    await stop(rotated);
    expect(replaced.kind).toBe('new, rotated');
    expect(replaced.secret).not.toBe(made.secret);
    const after = cli(['listen', '--print-json']);
    expect(await ready(after)).toEqual({ kind: 'kept', secret: replaced.secret });
    await stop(after);
  }, 60_000);

  it('trigger drives a Test payment to each event; --print-json prints them; --events forwards only those types, verified', async () => {
    const received: WebhookEvent[] = [];
    let secret = '';
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push(verifyWebhook(Buffer.concat(chunks), req.headers, secret) as WebhookEvent);
        res.writeHead(204).end();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    const forwardTo = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/webhooks`;
    try {
      const all = cli(['listen', '--print-json']);
      const filtered = cli(['listen', '--forward-to', forwardTo, '--events', 'payment.paid,payment.canceled']);
      secret = (await ready(filtered)).secret;
      await ready(all);

      const expected: Record<string, string[]> = {};
      for (const name of Object.keys(TRIGGERS) as (keyof typeof TRIGGERS)[]) {
        const run = await finished(['trigger', name]);
        expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
        const id = /^Triggered \S+ on (pay_\S+):/.exec(run.stdout)?.[1];
        expect(id).toBeDefined();
        expected[id!] = [...TRIGGERS[name].events];
      }
      const total = Object.values(expected).flat().length;
      const printed = await eventually(
        async () => all.stdout.split('\n').filter(Boolean),
        (lines) => lines.length >= total,
        15_000,
      );
      // stdout is JSON only: every line parses.
      const events = printed.map((text) => JSON.parse(text) as WebhookEvent);
      const byPayment: Record<string, string[]> = {};
      for (const event of events) (byPayment[event.data.payment!.id] ??= []).push(event.type);
      expect(byPayment).toEqual(expected);

      const wanted = events.filter((event) => event.type === 'payment.paid' || event.type === 'payment.canceled');
      await eventually(
        async () => received.length,
        (n) => n >= wanted.length,
        15_000,
      );
      expect(received.map((event) => event.id)).toEqual(wanted.map((event) => event.id));
      // The CLI prints a forward's line once the receiver's answer is back, a moment after the receiver
      // recorded the event: wait for the lines too (a CI run once read 2 of 3).
      const forwarded = await eventually(
        async () => filtered.stdout.split('\n').filter((line) => line.includes('→ 204')),
        (lines) => lines.length >= wanted.length,
        15_000,
      );
      expect(forwarded).toHaveLength(wanted.length);
      await Promise.all([stop(all), stop(filtered)]);
    } finally {
      server.close();
    }
  }, 120_000);
});
