#!/usr/bin/env node
// `hosted-checkout listen --forward-to http://localhost:3000/webhooks`: forwards the account's new
// Test events to a local URL, signed with this device's kept secret, until Ctrl-C.
// `hosted-checkout trigger payment.paid`: drives a new Test payment to that event.
// `hosted-checkout verify-statement statement.csv --polygon-rpc URL`: checks a settlement statement's
// signature and every transaction on it against the chain.
import { parseArgs } from 'node:util';
import { createClient, type HostedCheckout } from '../src/client.ts';
import { HostedCheckoutApiError } from '../src/errors.ts';
import { forwardEvents, type Forwarded } from '../src/listen.ts';
import { keptListenSecret, listenSecretName } from '../src/listen-secret.ts';
import { runVerifyStatement } from '../src/statement/command.ts';
import { isTriggerName, trigger, TRIGGERS } from '../src/trigger.ts';

const EVENT_TYPES = [
  'payment.started',
  'payment.paid',
  'payment.held',
  'payment.updated',
  'payment.failed',
  'payment.expired',
  'payment.canceled',
  'ping',
];

const HELP = `Usage: hosted-checkout listen [--forward-to URL] [options]
       hosted-checkout trigger EVENT [options]
       hosted-checkout verify-statement FILE (--polygon-rpc URL | --chain-api URL) [--keys URL|FILE]

listen: forwards every new Test-mode event of your account to URL, signed like a webhook delivery
(Standard Webhooks headers), and prints the status your server answered. Ctrl-C stops. The signing
secret is kept per device and account in $XDG_CONFIG_HOME/hosted-checkout/listen-secrets.json
(else ~/.config/…, mode 0600): put it in your .env once.

trigger: makes a new Test payment and drives it to EVENT through the API:
  ${Object.keys(TRIGGERS).join(', ')}

verify-statement: checks a settlement statement (CSV or JSON, as downloaded from the dashboard):
its Ed25519 signature with the platform's published keys, then each paid payment's txid_in and
txid_out on chain (amount, destination, token). Prints a line per check; exits 1 on any mismatch.

Options:
  --forward-to URL      where to POST each event (listen; without it, use --print-json)
  --events T1,T2        forward only these event types (listen), e.g. payment.paid,payment.expired
  --print-json          print each event as one JSON line on stdout; status lines go to stderr (listen)
  --rotate              replace this device's kept secret with a new one (listen)
  --secret WHSEC        sign with this secret instead of the kept one (listen)
  --api-key KEY         a Test secret key (default: $HOSTED_CHECKOUT_API_KEY, then $TEST_SECRET_KEY)
  --api-url URL         the API (default: $HOSTED_CHECKOUT_API_URL, then $GATEWAY_URL, then http://127.0.0.1:8080)
  --keys URL|FILE       the platform's public keys (verify-statement; default: API URL + /.well-known/hc-statement-keys.json)
  --polygon-rpc URL     a Polygon JSON-RPC node to check transactions on (verify-statement, production)
  --chain-api URL       the local emulator's chain API instead (verify-statement, local platform)
  --help                this text
`;

function fail(message: string): never {
  process.stderr.write(`hosted-checkout: ${message}\n`);
  process.exit(2);
}

function apiFailure(error: unknown, baseUrl: string): never {
  fail(error instanceof HostedCheckoutApiError ? `${error.code}: ${error.message}` : `cannot reach ${baseUrl}: ${String(error)}`);
}

function line(result: Forwarded): string {
  const outcome = result.status === null ? `failed: ${result.error ?? 'no answer'}` : String(result.status);
  return `${new Date().toISOString()}  ${result.event.type.padEnd(16)} ${result.event.id}  → ${outcome} (${result.ms} ms)\n`;
}

// Strict: an unknown flag or a missing value is a usage error, printed with the usage, never a stack trace.
function parse(): ReturnType<typeof parseArgs<{ allowPositionals: true; options: typeof OPTIONS }>> {
  try {
    return parseArgs({ allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    process.stderr.write(`hosted-checkout: ${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
    process.exit(2);
  }
}

const OPTIONS = {
  'forward-to': { type: 'string' },
  events: { type: 'string' },
  'print-json': { type: 'boolean' },
  rotate: { type: 'boolean' },
  'api-key': { type: 'string' },
  'api-url': { type: 'string' },
  secret: { type: 'string' },
  keys: { type: 'string' },
  'polygon-rpc': { type: 'string' },
  'chain-api': { type: 'string' },
  help: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parse>['values'];

function connection(values: Values, command: 'listen' | 'trigger'): { client: HostedCheckout; apiKey: string; baseUrl: string } {
  const apiKey =
    values['api-key'] ??
    process.env['HOSTED_CHECKOUT_API_KEY'] ??
    process.env['TEST_SECRET_KEY'] ??
    fail('no API key: pass --api-key or set TEST_SECRET_KEY');
  const testOnly = command === 'listen' ? 'listen forwards Test events only' : 'trigger drives Test payments only';
  if (apiKey.startsWith('sk_live_')) fail(`${testOnly}: use a Test key (sk_test_…)`);
  const baseUrl = values['api-url'] ?? process.env['HOSTED_CHECKOUT_API_URL'] ?? process.env['GATEWAY_URL'] ?? 'http://127.0.0.1:8080';
  if (!URL.canParse(baseUrl)) fail(`--api-url is not a URL: ${baseUrl}`);
  return { client: createClient({ apiKey, baseUrl, maxNetworkRetries: 0 }), apiKey, baseUrl };
}

function eventTypes(list: string | undefined): ReadonlySet<string> | undefined {
  if (list === undefined) return undefined;
  const types = list.split(',').map((type) => type.trim());
  const unknown = types.filter((type) => !EVENT_TYPES.includes(type));
  if (unknown.length > 0 || types.length === 0)
    fail(`--events: unknown event type ${unknown.join(', ') || '(none)'}; one of ${EVENT_TYPES.join(', ')}`);
  return new Set(types);
}

async function listen(values: Values): Promise<void> {
  const forwardTo = values['forward-to'];
  if (forwardTo === undefined && !values['print-json']) fail('--forward-to URL is required (or --print-json to only print events)');
  if (forwardTo !== undefined && (!URL.canParse(forwardTo) || !/^https?:$/.test(new URL(forwardTo).protocol)))
    fail(`--forward-to is not an http(s) URL: ${forwardTo}`);
  const types = eventTypes(values.events);
  const { client, apiKey, baseUrl } = connection(values, 'listen');
  if (values.secret !== undefined && !values.secret.startsWith('whsec_')) fail('--secret must be a whsec_ secret');
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());

  // A first poll that waits for nothing: the key is checked and the starting point fixed before "Ready".
  let after: string;
  try {
    after = (await client.listen({ wait: 0 }, { signal: stop.signal })).next_cursor;
  } catch (error) {
    apiFailure(error, baseUrl);
  }
  const kept = values.secret === undefined ? keptListenSecret(listenSecretName(baseUrl, apiKey), { rotate: values.rotate ?? false }) : null;
  const secret = values.secret ?? kept!.secret;
  // With --print-json stdout carries events only, one JSON a line, so it can be piped to jq.
  const status = values['print-json'] ? process.stderr : process.stdout;
  const only = types ? ` (${[...types].join(', ')} only)` : '';
  status.write(
    `Ready. ${forwardTo ? `Forwarding this account's Test events${only} to ${forwardTo}` : `Printing this account's Test events${only}`} (Ctrl-C stops).\n`,
  );
  if (kept)
    status.write(
      `Signing secret (${kept.created ? (values.rotate ? 'new, rotated' : 'new') : 'kept'} for this device and account, in ${kept.file}): ${secret}\n`,
    );
  try {
    await forwardEvents({
      client,
      forwardTo,
      secret,
      after,
      types,
      signal: stop.signal,
      ...(values['print-json'] ? { onEvent: (event) => process.stdout.write(`${JSON.stringify(event)}\n`) } : {}),
      onForwarded: (result) => status.write(line(result)),
      onApiError: (error) => process.stderr.write(`hosted-checkout: lost the API (${String(error)}); trying again\n`),
    });
  } catch (error) {
    fail(error instanceof HostedCheckoutApiError ? `${error.code}: ${error.message}` : String(error));
  }
  status.write('Stopped.\n');
}

async function triggerCommand(name: string | undefined, values: Values): Promise<void> {
  if (name === undefined || !isTriggerName(name)) fail(`trigger: which event? one of ${Object.keys(TRIGGERS).join(', ')}`);
  const { client, baseUrl } = connection(values, 'trigger');
  try {
    const done = await trigger(client, name);
    process.stdout.write(`Triggered ${name} on ${done.paymentId}: ${done.events.join(' → ')}\n`);
  } catch (error) {
    apiFailure(error, baseUrl);
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parse();
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(HELP);
    return;
  }
  if (command === 'listen' && rest.length === 0) return listen(values);
  if (command === 'trigger' && rest.length <= 1) return triggerCommand(rest[0], values);
  if (command === 'verify-statement' && rest.length === 1) {
    process.exitCode = await runVerifyStatement(
      {
        file: rest[0]!,
        keys: values.keys,
        baseUrl: values['api-url'] ?? process.env['HOSTED_CHECKOUT_API_URL'] ?? process.env['GATEWAY_URL'] ?? 'http://127.0.0.1:8080',
        polygonRpc: values['polygon-rpc'],
        chainApi: values['chain-api'],
      },
      process.stdout,
      process.stderr,
    );
    return;
  }
  fail(`unknown command: ${positionals.join(' ')} (try --help)`);
}

await main();
