// Risk covered (issue 47, item 8): a second clone, a new worktree or `git clean` cannot start the
// platform on the machine's databases. Each clone kept the key that seals secrets at rest (and the
// demo Test key) in its own .local/: the second clone made a new key, webhooks crash-looped on the
// endpoint secrets sealed with the first one, and the start gave up; the demo key of the first clone
// was revoked. Two state folders (PLATFORM_HOME, what a clone's .local/ is) on one set of databases
// play the two clones: the real start command, its own ports, databases and NATS prefix.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  killLeftovers,
  launchPlatform,
  platformSetting,
  startPlatform,
  stopPlatform,
  type PlatformSetting,
} from '../src/platform-process.ts';

const repository = join(import.meta.dirname, '..', '..', '..');
let homes: string;
let setting: PlatformSetting;

beforeAll(async () => {
  homes = mkdtempSync(join(tmpdir(), 'hc-second-clone-'));
  setting = await platformSetting('clones');
});
afterAll(async () => {
  killLeftovers();
  await setting.dropDatabases();
  rmSync(homes, { recursive: true, force: true });
});

const runner = join(repository, 'tools', 'platform', 'src', 'platform.ts');
const cloneEnv = (clone: string, extra: NodeJS.ProcessEnv = {}) => ({
  ...process.env,
  ...setting.env,
  PLATFORM_HOME: join(homes, clone),
  LOG_LEVEL: 'warn',
  ...extra,
});

/** ./scripts/start's runner as the clone whose state folder is `clone` would run it. */
function startClone(clone: string, args: string[] = []) {
  return startPlatform(process.execPath, [runner, ...args], { cwd: repository, env: cloneEnv(clone), timeoutMs: 150_000 });
}

async function createEndpoint(url: string, key: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/v1/webhook_endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', enabled_events: ['payment.paid'] }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Record<string, unknown>;
}

describe('two clones started one after the other on the same databases', () => {
  it('both reach GATEWAY_URL=, with the same demo Test key, and the sealed secrets of the first clone still open', async () => {
    const first = await startClone('first');
    const firstUrl = String(first.printed['GATEWAY_URL']);
    const demoKey = String(first.printed['TEST_SECRET_KEY']);
    // A value sealed at rest with the key the first start used.
    const endpoint = await createEndpoint(firstUrl, demoKey);
    expect(await stopPlatform(first)).toBe(0);

    // The second clone has never started: an empty state folder (as after `git clean -fdx` too).
    const second = await startClone('second');
    expect(second.printed['GATEWAY_URL']).toBe(firstUrl);
    expect(second.printed['DEMO_ACCOUNT_ID']).toBe(first.printed['DEMO_ACCOUNT_ID']);
    expect(second.printed['TEST_SECRET_KEY']).toBe(demoKey); // the first clone's key is not revoked
    expect(second.stderr()).toMatch(/encryption key of secrets at rest: kept in the local state database/);
    // Nothing of the data's state went to the clone's folder: only what belongs to this run.
    expect(readdirSync(join(homes, 'second', '.local')).sort()).toEqual(['platform.env']);
    const read = await fetch(`${firstUrl}/v1/webhook_endpoints/${String(endpoint['id'])}`, {
      headers: { authorization: `Bearer ${demoKey}` },
    });
    expect(read.status).toBe(200);
    // Rotating reads and re-seals the endpoint's secret: it opens with the key the second clone has.
    const rotated = await fetch(`${firstUrl}/v1/webhook_endpoints/${String(endpoint['id'])}/rotate_secret`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demoKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(rotated.status).toBe(200);
    expect(await stopPlatform(second)).toBe(0);

    // And the first clone again, after the second: still the same key and data.
    const again = await startClone('first');
    expect(again.printed['TEST_SECRET_KEY']).toBe(demoKey);
    expect(await stopPlatform(again)).toBe(0);
  }, 480_000);

  it('names a key the data needs and the start lacks at once, and --reset-local-data starts afresh', async () => {
    // The databases hold the endpoint sealed above; a keyring without its key (as if hc_platform_local were lost).
    const otherKeys = `elsewhere:${Buffer.alloc(32, 7).toString('base64')}`;
    const stranded = launchPlatform(process.execPath, [runner], {
      cwd: repository,
      env: cloneEnv('third', { SECRETS_ENCRYPTION_KEYS: otherKeys }),
      timeoutMs: 150_000,
    });
    expect(await stranded.exited()).toBe(1);
    const said = stranded.stderr();
    expect(said).toMatch(
      /webhooks exited \(code 1\); not restarting it\. webhooks cannot start: its database holds secrets sealed with key "local-[0-9a-z]+", which SECRETS_ENCRYPTION_KEYS in your environment does not have/,
    );
    expect(said).toContain('docs/operations.md#a-key-missing-at-start');
    expect(said).toContain('./scripts/start --reset-local-data drops them and starts afresh');
    expect(said).not.toMatch(/webhooks exited unexpectedly/); // no restart that cannot help

    const fresh = await startPlatform(process.execPath, [runner, '--reset-local-data'], {
      cwd: repository,
      env: cloneEnv('third', { SECRETS_ENCRYPTION_KEYS: otherKeys }),
      timeoutMs: 150_000,
    });
    expect(fresh.stderr()).toMatch(/--reset-local-data: dropped the webhooks database/);
    expect(fresh.printed['GATEWAY_URL']).toMatch(/^http:/);
    expect(fresh.printed['DEMO_ACCOUNT_ID']).toMatch(/^acct_/);
    expect(await stopPlatform(fresh)).toBe(0);
  }, 480_000);
});
