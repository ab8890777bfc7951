// Risk covered: a settlement statement an accountant cannot check without trusting us — a statement
// whose signature still verifies after an amount was changed, one signed with a key that is not the
// platform's, or one whose signature is right but whose transactions are not what the chain shows.
// Real Live payments (API, emulator paying and forwarding, settlement, checkout), the dashboard's
// downloads in Chromium, and the SDK's `hosted-checkout verify-statement` run as a process against
// the emulator's chain API.
import { execFile } from 'node:child_process';
import { sign } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { csvSignatureRow, readStatement, sealBytes } from '@hosted-checkout/sdk';
import {
  newStatementKey,
  parsePublicKeys,
  parseSigningKey,
  STATEMENT_COLUMNS,
  statementKeysDocument,
  type StatementSigner,
} from '@hc/exports';
import { TEST_STATEMENT_PUBLIC_KEYSET, TEST_STATEMENT_SIGNING_KEY } from '@hc/test-kit';
import { bodyOf, createSession, eventually } from './e2e-helpers.ts';
import { startDashboardHarness, walk, type DashboardHarness, type DashboardMerchant } from './dashboard-harness.ts';

const CLI = fileURLToPath(new URL('../../packages/sdk/bin/hosted-checkout.ts', import.meta.url));

let h: DashboardHarness;
let owner: DashboardMerchant;
let dir: string;
const paid: { id: string; txidIn: string; txidOut: string }[] = [];

async function livePayment(amount: string): Promise<void> {
  const session = await createSession(h.platform, owner.liveKey, {
    amount,
    currency: 'USD',
    description: 'Statement line',
    customer_email: 'kim@example.com',
  });
  const id = String(session['id']);
  expect((await h.platform.request('POST', `/v1/checkout_sessions/${id}/start`, { key: owner.liveKey, body: {} })).status).toBe(200);
  const pay = await h.platform.operator('emulator', 'pay', owner.accountId, id, '--mode', 'live', '--amount', amount);
  if (pay.code !== 0) throw new Error(`emulator pay exited ${pay.code}: ${pay.stderr}`);
  const payment = await eventually(
    async () => bodyOf(await h.platform.request('GET', `/v1/payments/${id}`, { key: owner.liveKey })),
    (p) => p['status'] === 'paid',
  );
  const settlement = payment['settlement'] as Record<string, string>;
  paid.push({ id, txidIn: settlement['txid_in']!, txidOut: settlement['txid_out']! });
}

beforeAll(async () => {
  h = await startDashboardHarness('statement-verify');
  owner = await h.merchant();
  dir = await mkdtemp(join(tmpdir(), 'hc-statement-'));
  await livePayment('21.55');
  await livePayment('5.10');
}, 240_000);
afterAll(async () => {
  await h?.stop();
});

/** The platform's published keys as a file, plus any other key the test trusts. */
async function keysFile(name: string, ...extra: StatementSigner[]): Promise<string> {
  const keys = parsePublicKeys(TEST_STATEMENT_PUBLIC_KEYSET);
  for (const signer of extra) keys.set(signer.keyId, signer.publicKey);
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(statementKeysDocument(keys)));
  return file;
}

function verify(file: string, keys: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'verify-statement', file, '--keys', keys, '--chain-api', h.platform.stack.emulator.url],
      { timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A CSV statement re-signed by `signer` (its key id in the seal), its body as given. */
function resignedCsv(bytes: Buffer, signer: StatementSigner): Buffer {
  const text = bytes.toString('utf8');
  const body = text.slice(0, text.lastIndexOf('\nsignature,') + 1);
  const seal = { ...readStatement(Buffer.from(`${body}${text.slice(body.length)}`)).seal, key_id: signer.keyId };
  const signature = sign(null, sealBytes(seal), signer.privateKey).toString('base64url');
  return Buffer.from(body + csvSignatureRow(seal, signature, STATEMENT_COLUMNS.length));
}

let csv: Buffer;
let json: Buffer;

describe('a signed statement of Live payments', () => {
  it('downloads from the dashboard as CSV and JSON, and both verify against the signature and the chain', async () => {
    const page = await h.signedIn(owner, { viewport: { width: 1280, height: 900 } });
    const today = h.platform.clock.now().toISOString().slice(0, 10);
    await walk('statement-signed', page, async () => {
      await page.goto('/dashboard/live/payments');
      await page.getByLabel('First day (UTC)').fill(today);
      await page.getByLabel('Last day (UTC)').fill(today);
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download settlement statement' }).click(),
      ]);
      csv = await readFile((await file.path())!);
      const [asJson] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as JSON' }).click()]);
      json = await readFile((await asJson.path())!);
    });
    const keys = await keysFile('published.json');
    for (const [name, bytes] of [
      ['statement.csv', csv],
      ['statement.json', json],
    ] as const) {
      await writeFile(join(dir, name), bytes);
      const result = await verify(join(dir, name), keys);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain("ok   signature: signed by the platform's key test-statements-1");
      for (const { id, txidIn, txidOut } of paid) {
        expect(result.stdout).toMatch(new RegExp(`ok {3}${id} txid_in {2}${txidIn}: amount \\S+ matches; token polygon_usdc matches`));
        expect(result.stdout).toMatch(
          new RegExp(`ok {3}${id} txid_out ${txidOut}: amount \\S+ matches; token polygon_usdc matches; destination \\S+ matches`),
        );
      }
      expect(result.stdout).toContain('Verified: the signature and 6 checks match.');
    }
  }, 120_000);

  it('from the operator CLI, signed with the same key, verifies too; without the key it says it is unsigned', async () => {
    const today = h.platform.clock.now().toISOString().slice(0, 10);
    const args = ['payments', 'statement', owner.accountId, '--mode', 'live', '--from', today, '--to', today];
    const unsigned = await h.platform.operator(...args);
    expect(unsigned).toMatchObject({
      code: 0,
      stderr: expect.stringContaining('STATEMENT_SIGNING_KEY is not set: this statement is not signed'),
    });
    h.platform.operatorEnv['STATEMENT_SIGNING_KEY'] = TEST_STATEMENT_SIGNING_KEY;
    try {
      const signed = await h.platform.operator(...args);
      expect(signed.code).toBe(0);
      const file = join(dir, 'operator.csv');
      await writeFile(file, signed.stdout);
      const result = await verify(file, await keysFile('published.json'));
      expect(result).toMatchObject({ code: 0 });
      expect(result.stdout).toContain('Verified: the signature and 6 checks match.');
    } finally {
      delete h.platform.operatorEnv['STATEMENT_SIGNING_KEY'];
    }
  }, 90_000);

  it('with one amount changed fails its signature', async () => {
    const forwarded = readStatement(csv).lines[0]!['forwarded']!;
    const file = join(dir, 'tampered-amount.csv');
    await writeFile(file, csv.toString('utf8').replace(`,${forwarded},`, `,${forwarded.replace(/^\d+/, (n) => String(Number(n) + 1))},`));
    const result = await verify(file, await keysFile('published.json'));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('FAIL signature: the statement was changed after it was signed');
    expect(result.stdout).toMatch(/FAIL pay_\S+ txid_out .*amount: statement/);
  }, 60_000);

  it('re-signed with a key that is not the platform’s fails its signature', async () => {
    const impostor = parseSigningKey(newStatementKey('test-statements-1').signingKey);
    const file = join(dir, 'wrong-key.csv');
    await writeFile(file, resignedCsv(csv, impostor));
    const result = await verify(file, await keysFile('published.json'));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('FAIL signature: the signature does not verify with key test-statements-1');
  }, 60_000);

  it('correctly signed but naming another transaction fails the chain check', async () => {
    // One payment's txid_out swapped for the other's, and signed again by a key the test publishes as
    // trusted: the signature verifies, the chain shows another amount to the wallet.
    const [first, second] = paid;
    const trusted = parseSigningKey(newStatementKey('test-only-trusted').signingKey);
    const file = join(dir, 'wrong-txid.csv');
    await writeFile(file, resignedCsv(Buffer.from(csv.toString('utf8').replace(first!.txidOut, second!.txidOut)), trusted));
    const result = await verify(file, await keysFile('with-test-key.json', trusted));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("ok   signature: signed by the platform's key test-only-trusted");
    expect(result.stdout).toContain(`FAIL ${first!.id} txid_out ${second!.txidOut}: amount: statement`);
    expect(result.stdout).toContain('NOT verified: 1 of 6 checks do not match.');
  }, 60_000);
});
