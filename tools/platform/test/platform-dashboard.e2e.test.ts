// Risk covered: the merchant dashboard built but not part of the platform the first command starts
// (issue 16): /dashboard not routed by the front router, `./scripts/operator users create` unable to
// reach the dashboard's users listener, or a made user unable to sign in and see their account (the
// dashboard's path to it, the gateway's internal admin listener, not wired). The real start command
// (tools/platform/src/platform.ts) runs on free ports with its own databases, NATS prefix and state folder.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { killLeftovers, platformSetting, startPlatform, stopPlatform, type PlatformSetting } from '../src/platform-process.ts';

const run = promisify(execFile);
const repository = join(import.meta.dirname, '..', '..', '..');
let home: string;
let setting: PlatformSetting;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'hc-platform-dashboard-'));
  setting = await platformSetting('dashboard');
});
afterAll(async () => {
  killLeftovers();
  await setting.dropDatabases();
  rmSync(home, { recursive: true, force: true });
});

it('serves /dashboard through the front router; a user made by the operator CLI signs in and sees their account', async () => {
  const env = { ...process.env, ...setting.env, PLATFORM_HOME: home, LOG_LEVEL: 'warn' };
  const platform = await startPlatform(process.execPath, [join(repository, 'tools', 'platform', 'src', 'platform.ts')], {
    cwd: repository,
    env,
    timeoutMs: 120_000,
  });
  const url = String(platform.printed['GATEWAY_URL']);
  const accountId = String(platform.printed['DEMO_ACCOUNT_ID']);

  const signInPage = await fetch(`${url}/dashboard/sign-in`);
  expect([signInPage.status, signInPage.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
  expect(await signInPage.text()).toContain('<form method="post" action="/dashboard/sign-in">');

  // The README's step, with the password on stdin instead of a set-password link.
  const password = 'long enough to be a passphrase';
  const made = await run(
    'bash',
    [
      '-c',
      `printf '%s\\n' '${password}' | ./scripts/operator users create "$DEMO_ACCOUNT_ID" --email Owner@Shop.example --password-stdin --json`,
    ],
    { cwd: repository, env: { ...env, ...platform.printed }, timeout: 120_000 },
  );
  expect(JSON.parse(made.stdout)).toMatchObject({
    account_id: accountId,
    email: 'owner@shop.example',
    password_set: true,
    set_password_url: null,
  });

  const signedIn = await fetch(`${url}/dashboard/sign-in`, {
    method: 'POST',
    body: new URLSearchParams({ email: 'owner@shop.example', password, next: '/dashboard/test/settings' }),
    redirect: 'manual',
  });
  expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, '/dashboard/test/settings']);
  const cookie = signedIn.headers.get('set-cookie') ?? '';
  // Local http: not Secure (the chart sets DASHBOARD_SECURE_COOKIES=true), but never readable by script.
  expect(cookie).toMatch(/^hc_dashboard=[\w-]{43}; Path=\/dashboard; HttpOnly; SameSite=Lax$/);
  const settings = await fetch(`${url}/dashboard/test/settings`, { headers: { cookie: cookie.split(';')[0]! } });
  expect(settings.status).toBe(200);
  expect(await settings.text()).toContain(`<code>${accountId}</code>`);

  expect(await stopPlatform(platform)).toBe(0);
}, 240_000);
