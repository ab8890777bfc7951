#!/usr/bin/env node
// `hosted-checkout listen --forward-to http://localhost:3000/webhooks`: forwards the account's new
// Test events to a local URL, signed with a secret printed once, until Ctrl-C.
import { parseArgs } from 'node:util';
import { createClient } from '../src/client.ts';
import { HostedCheckoutApiError } from '../src/errors.ts';
import { forwardEvents, newSigningSecret, type Forwarded } from '../src/listen.ts';

const HELP = `Usage: hosted-checkout listen --forward-to URL [options]

Forwards every new Test-mode event of your account to URL, signed like a webhook delivery
(Standard Webhooks headers), and prints the status your server answered. Ctrl-C stops.

Options:
  --forward-to URL   where to POST each event (required)
  --api-key KEY      a Test secret key (default: $HOSTED_CHECKOUT_API_KEY, then $TEST_SECRET_KEY)
  --api-url URL      the API (default: $HOSTED_CHECKOUT_API_URL, then $GATEWAY_URL, then http://127.0.0.1:8080)
  --secret WHSEC     sign with this secret instead of a new one (keep it in your .env)
  --help             this text
`;

function fail(message: string): never {
  process.stderr.write(`hosted-checkout: ${message}\n`);
  process.exit(2);
}

function line(result: Forwarded): string {
  const outcome = result.status === null ? `failed: ${result.error ?? 'no answer'}` : String(result.status);
  return `${new Date().toISOString()}  ${result.event.type.padEnd(16)} ${result.event.id}  → ${outcome} (${result.ms} ms)\n`;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'forward-to': { type: 'string' },
      'api-key': { type: 'string' },
      'api-url': { type: 'string' },
      secret: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(HELP);
    return;
  }
  if (positionals[0] !== 'listen' || positionals.length > 1) fail(`unknown command: ${positionals.join(' ')} (try --help)`);
  const forwardTo = values['forward-to'] ?? fail('--forward-to URL is required');
  if (!URL.canParse(forwardTo) || !/^https?:$/.test(new URL(forwardTo).protocol)) fail(`--forward-to is not an http(s) URL: ${forwardTo}`);
  const apiKey =
    values['api-key'] ??
    process.env['HOSTED_CHECKOUT_API_KEY'] ??
    process.env['TEST_SECRET_KEY'] ??
    fail('no API key: pass --api-key or set TEST_SECRET_KEY');
  if (apiKey.startsWith('sk_live_')) fail('listen forwards Test events only: use a Test key (sk_test_…)');
  const baseUrl = values['api-url'] ?? process.env['HOSTED_CHECKOUT_API_URL'] ?? process.env['GATEWAY_URL'] ?? 'http://127.0.0.1:8080';
  const secret = values.secret ?? newSigningSecret();
  if (!secret.startsWith('whsec_')) fail('--secret must be a whsec_ secret');

  const client = createClient({ apiKey, baseUrl, maxNetworkRetries: 0 });
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());

  // A first poll that waits for nothing: the key is checked and the starting point fixed before "Ready".
  let after: string;
  try {
    after = (await client.listen({ wait: 0 }, { signal: stop.signal })).next_cursor;
  } catch (error) {
    fail(error instanceof HostedCheckoutApiError ? `${error.code}: ${error.message}` : `cannot reach ${baseUrl}: ${String(error)}`);
  }
  process.stdout.write(`Ready. Forwarding this account's Test events to ${forwardTo} (Ctrl-C stops).\n`);
  if (!values.secret) process.stdout.write(`Signing secret (shown once; verify deliveries with it): ${secret}\n`);
  try {
    await forwardEvents({
      client,
      forwardTo,
      secret,
      after,
      signal: stop.signal,
      onForwarded: (result) => process.stdout.write(line(result)),
      onApiError: (error) => process.stderr.write(`hosted-checkout: lost the API (${String(error)}); trying again\n`),
    });
  } catch (error) {
    fail(error instanceof HostedCheckoutApiError ? `${error.code}: ${error.message}` : String(error));
  }
  process.stdout.write('Stopped.\n');
}

await main();
