/**
 * The chart's `helm test` checks (templates/tests/), run by `node helm-test.ts <check>` in a test-hook
 * Pod with the gateway image (Node 24 runs this TypeScript directly; Node built-ins only), from the
 * ConfigMap the chart makes of files/. Exits 0 when the check passes, 1 with what failed otherwise.
 *
 *   ready   every service of the release answers its readiness check through its Service:
 *           HC_TEST_TARGETS, a JSON list of { name, http: url } | { name, grpc: host:port } | { name, tcp: host:port }
 *   create  one Test-mode checkout session through the gateway's Service (HC_TEST_GATEWAY_URL) with the
 *           Test secret key HC_TEST_API_KEY (from a Secret), then read back by id. A Live key is refused:
 *           a test never makes a Live payment.
 *
 * HC_TEST_TIMEOUT_SECONDS (default 120) bounds how long a check waits for pods still starting.
 */
import { grpcReady, httpReady, tcpReady } from './probes.ts';

interface Target {
  name: string;
  http?: string;
  grpc?: string;
  tcp?: string;
}

const say = (line: string): void => void process.stdout.write(`${line}\n`);

function hostPort(address: string): [string, number] {
  const at = address.lastIndexOf(':');
  return [address.slice(0, at), Number(address.slice(at + 1))];
}

function check(target: Target): Promise<boolean> {
  if (target.http) return httpReady(target.http);
  if (target.grpc) return grpcReady(...hostPort(target.grpc));
  if (target.tcp) return tcpReady(...hostPort(target.tcp));
  throw new Error(`target ${target.name} has no http, grpc or tcp address`);
}

async function ready(): Promise<boolean> {
  const targets = JSON.parse(process.env['HC_TEST_TARGETS'] ?? '[]') as Target[];
  if (targets.length === 0) throw new Error('HC_TEST_TARGETS lists no service');
  const deadline = Date.now() + Number(process.env['HC_TEST_TIMEOUT_SECONDS'] ?? 120) * 1000;
  const results = await Promise.all(
    targets.map(async (target) => {
      // A pod may still be starting (helm test right after an upgrade): ask again until the deadline.
      while (!(await check(target))) {
        if (Date.now() > deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
      return true;
    }),
  );
  targets.forEach((t, i) => say(`${results[i] ? 'ready' : 'NOT READY'}: ${t.name} (${t.http ?? t.grpc ?? t.tcp})`));
  return results.every(Boolean);
}

/** Answers a careful client asks again: the platform was busy or a part of it not yet reachable. */
const ASK_AGAIN = new Set([502, 503, 504]);

/**
 * `call` until it gets an HTTP answer other than 502, 503 or 504, within HC_TEST_TIMEOUT_SECONDS: a pod
 * that just started may not resolve or reach the Service yet (a new pod's DNS, endpoints still
 * updating), and the first calls into just-started services may miss their deadlines (503). Every call
 * asked again here is safe to repeat (a read, or a create with an Idempotency-Key). The last answer is
 * returned as it is once the deadline passed.
 */
async function untilAnswered(call: () => Promise<Response>): Promise<Response> {
  const deadline = Date.now() + Number(process.env['HC_TEST_TIMEOUT_SECONDS'] ?? 120) * 1000;
  for (;;) {
    try {
      const response = await call();
      if (!ASK_AGAIN.has(response.status) || Date.now() > deadline) return response;
      say(`answered ${response.status} ${await response.text()}; asking again`);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      say(`no answer yet (${error instanceof Error ? error.message : String(error)}); asking again`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

async function create(): Promise<boolean> {
  const gateway = process.env['HC_TEST_GATEWAY_URL'];
  const key = process.env['HC_TEST_API_KEY'] ?? '';
  if (!gateway) throw new Error('HC_TEST_GATEWAY_URL is not set');
  if (!key.startsWith('sk_test_')) {
    say('the API key of the test is not a Test secret key (sk_test_…): refused, a test never makes a Live payment');
    return false;
  }
  const reference = `helm-test-${Date.now()}`;
  // The Idempotency-Key makes a create asked again after a lost answer the same session, not a second one.
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': reference };
  const created = await untilAnswered(() =>
    fetch(`${gateway}/v1/checkout_sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ amount: '1.00', currency: 'USD', description: 'helm test', reference }),
      signal: AbortSignal.timeout(15_000),
    }),
  );
  const session = (await created.json()) as { id?: string; livemode?: boolean };
  if (created.status !== 201 || !session.id?.startsWith('pay_') || session.livemode !== false) {
    say(`create: expected 201 with a Test session, got ${created.status} ${JSON.stringify(session)}`);
    return false;
  }
  const read = await untilAnswered(() =>
    fetch(`${gateway}/v1/checkout_sessions/${session.id}`, { headers, signal: AbortSignal.timeout(15_000) }),
  );
  const again = (await read.json()) as { id?: string; reference?: string };
  if (read.status !== 200 || again.id !== session.id || again.reference !== reference) {
    say(`read back: expected 200 with ${session.id}, got ${read.status} ${JSON.stringify(again)}`);
    return false;
  }
  say(`created and read back Test checkout session ${session.id}`);
  return true;
}

const checks: Record<string, () => Promise<boolean>> = { ready, create };
const chosen = checks[process.argv[2] ?? ''];
if (!chosen) {
  say(`usage: node helm-test.ts ${Object.keys(checks).join('|')}`);
  process.exitCode = 2;
} else {
  chosen().then(
    (ok) => (process.exitCode = ok ? 0 : 1),
    (error: unknown) => {
      say(`failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
