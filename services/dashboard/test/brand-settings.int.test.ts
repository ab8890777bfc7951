// Risk covered: Settings → Brand (docs/adr/0096) keeping a logo as uploaded (SVG with script, another
// type, over 512 kB) or a colour buyers cannot read, letting a role below admin or a forged post change
// the brand, or changing it without its audit line. The dashboard's Express app runs in-process over
// real HTTP against the real accounts service (gRPC, PostgreSQL), which checks and re-encodes the logo.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { ACCOUNTS_MIGRATIONS_DIR, loadAccountsConfig, startAccountsService, type RunningAccountsService } from '@hc/accounts';
import { createServiceClient, type CallContext, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import { CheckoutAdminService, CheckoutService } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';
import { NotificationsService } from '@hc/proto/notifications/v1';
import { WebhooksService } from '@hc/proto/webhooks/v1';
import { BrandService, MerchantAdminService } from '@hc/proto/accounts/v1';
import { secretBoxFromEnv } from '@hc/secrets';
import {
  captureLogs,
  createTestDatabase,
  eventually,
  GIF_BYTES,
  SVG_WITH_SCRIPT,
  TEST_SECRETS_ENCRYPTION_KEYS,
  testNatsPrefix,
  testNatsUrl,
  testPng,
  type TestDatabase,
} from '@hc/test-kit';
import { fakeClient } from '@hc/test-kit/fake-client';
import { createLogger } from '@hc/logging';
import type { PlatformClients } from '../src/adapters/platform-clients.ts';
import { DASHBOARD_MIGRATIONS_DIR } from '../src/migrations.ts';
import { AuditStore } from '../src/store/audit-store.ts';
import { NoticeStore } from '../src/store/notice-store.ts';
import { createDashboardPrisma, type DashboardPrisma } from '../src/store/prisma.ts';
import { TeamStore } from '../src/store/team-store.ts';
import { UserStore } from '../src/store/user-store.ts';
import { createUser } from '../src/use-cases/create-user.ts';
import { serveDashboardApp } from './support/served-app.ts';

const logs = captureLogs();
const PASSWORD = 'correct horse battery staple 42';
let dashboardDb: TestDatabase;
let accountsDb: TestDatabase;
let prisma: DashboardPrisma;
let accounts: RunningAccountsService;
let admin: ServiceClient<typeof MerchantAdminService>;
let brands: ServiceClient<typeof BrandService, PublicCallContext>;
let served: Awaited<ReturnType<typeof serveDashboardApp>>;
let audit: AuditStore;
let accountId: string;

beforeAll(async () => {
  [dashboardDb, accountsDb] = await Promise.all([
    createTestDatabase('dashboard', DASHBOARD_MIGRATIONS_DIR),
    createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR),
  ]);
  const accountsConfig = loadAccountsConfig({
    ACCOUNTS_DATABASE_URL: accountsDb.url,
    ACCOUNTS_GRPC_ADDRESS: '127.0.0.1:0',
    NATS_URL: testNatsUrl(),
    NATS_SUBJECT_PREFIX: testNatsPrefix('brand'),
    LOG_LEVEL: 'silent',
  });
  accounts = await startAccountsService(accountsConfig, createLogger('accounts', { level: 'silent' }));
  accountId = (await accounts.operations.createAccount({ name: 'Mug & Co' })).id;
  admin = createServiceClient(MerchantAdminService, accounts.address, { timeoutMs: 30_000 });
  brands = createServiceClient<typeof BrandService, PublicCallContext>(BrandService, accounts.address, { timeoutMs: 30_000 });
  prisma = createDashboardPrisma(dashboardDb.url);
  audit = new AuditStore(prisma);
  const deps = {
    users: new UserStore(prisma, secretBoxFromEnv(TEST_SECRETS_ENCRYPTION_KEYS)),
    notices: new NoticeStore(prisma),
    team: new TeamStore(prisma),
    audit,
    now: () => new Date(),
    publicBaseUrl: 'http://dashboard.test',
  };
  await createUser(deps, { accountId, email: 'ann@mug.example', password: PASSWORD, role: 'owner' });
  await createUser(deps, { accountId, email: 'vic@mug.example', password: PASSWORD, role: 'viewer' });
  // Only the accounts service is reached by these pages; any other call fails the test.
  const platform: PlatformClients = {
    admin,
    checkout: fakeClient<typeof CheckoutService, CallContext>(CheckoutService, {}).client,
    checkoutAdmin: fakeClient<typeof CheckoutAdminService, CallContext>(CheckoutAdminService, {}).client,
    customers: fakeClient<typeof CustomersService, CallContext>(CustomersService, {}).client,
    webhooks: fakeClient<typeof WebhooksService, CallContext>(WebhooksService, {}).client,
    notifications: fakeClient<typeof NotificationsService, CallContext>(NotificationsService, {}).client,
  };
  served = await serveDashboardApp(deps, platform, logs.destination);
});

afterAll(async () => {
  await served.close();
  admin.close();
  brands.close();
  await accounts.stop();
  await prisma.$disconnect();
  await Promise.all([dashboardDb.drop(), accountsDb.drop()]);
});

/** A signed-in browser that posts the brand form as the page does: multipart, its CSRF token first. */
async function signedIn(email: string) {
  let cookie = '';
  const signIn = await fetch(`${served.base}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ email, password: PASSWORD, next: '/dashboard/test/settings/brand' }),
  });
  cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  const get = async (path: string) => {
    const response = await fetch(`${served.base}${path}`, { headers: { cookie }, redirect: 'manual' });
    return { status: response.status, html: await response.text() };
  };
  const csrf = /name="_csrf" value="([^"]+)"/.exec((await get('/dashboard/test/settings')).html)![1]!;
  const post = async (
    fields: { accent_colour?: string; remove_logo?: string },
    logo?: { bytes: Buffer; name: string; type: string },
    token = csrf,
  ) => {
    const form = new FormData();
    form.append('_csrf', token);
    form.append('accent_colour', fields.accent_colour ?? '');
    if (fields.remove_logo) form.append('remove_logo', fields.remove_logo);
    if (logo) form.append('logo', new Blob([new Uint8Array(logo.bytes)], { type: logo.type }), logo.name);
    const response = await fetch(`${served.base}/dashboard/test/settings/brand`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
      body: form,
    });
    return { status: response.status, location: response.headers.get('location'), html: await response.text() };
  };
  return { get, post };
}

const brandNow = async () => (await brands.getAccountBrand({ accountId }, { requestId: 'req_test' })).brand!;
/** The newest brand.change line once completed (a line is completed just after its answer is sent). */
const lastLine = () =>
  eventually(
    async () => (await audit.list(accountId, { action: 'brand.change' }))[0]!,
    (line) => line.outcome !== 'started',
  );

describe('Settings → Brand', () => {
  it('an owner uploads a PNG and a colour: accounts keeps the logo re-encoded (its text chunk gone), the page shows it, the log has before → after', async () => {
    const ann = await signedIn('ann@mug.example');
    const upload = testPng({ width: 600, height: 200, comment: 'secret-camera-serial' });
    const saved = await ann.post({ accent_colour: '#0A58CA' }, { bytes: upload, name: 'logo.png', type: 'image/png' });
    expect([saved.status, saved.location]).toEqual([303, '/dashboard/test/settings/brand']);
    const brand = await brandNow();
    expect(brand).toMatchObject({ accentColour: '#0a58ca', logoType: 'image/png' });
    const { image } = await brands.getLogo({ sha256: brand.logoSha256! }, { requestId: 'req_test' });
    expect(Buffer.from(image).includes(Buffer.from('secret-camera-serial'))).toBe(false);
    expect(await sharp(image).metadata()).toMatchObject({ format: 'png', width: 512 });
    const page = await ann.get('/dashboard/test/settings/brand');
    expect(page.html).toContain(`<img src="/pay/brand/logo/${brand.logoSha256}.png"`);
    expect(await lastLine()).toMatchObject({
      outcome: 'done',
      actor: 'ann@mug.example',
      before: 'accent platform; no logo',
      after: `accent #0a58ca; logo ${brand.logoSha256!.slice(0, 12)}`,
    });
  });

  it.each([
    ['an SVG with script, named .png', { bytes: SVG_WITH_SCRIPT, name: 'logo.png', type: 'image/png' }, 400, 'SVG is not accepted'],
    ['a GIF', { bytes: GIF_BYTES, name: 'logo.gif', type: 'image/gif' }, 400, 'PNG, JPEG or WebP'],
    ['a file over 512 kB', { bytes: Buffer.alloc(600 * 1024, 1), name: 'big.png', type: 'image/png' }, 413, 'at most 512 kB'],
  ])('refuses %s on the form, changes nothing, and logs it refused', async (_name, logo, status, words) => {
    const ann = await signedIn('ann@mug.example');
    const before = await brandNow();
    const refused = await ann.post({ accent_colour: '#0a58ca' }, logo);
    expect(refused.status).toBe(status);
    expect(refused.html).toContain(words);
    expect(refused.html).toMatch(/id="logo"[^>]*aria-invalid="true"/);
    expect(await brandNow()).toEqual(before);
    expect(await lastLine()).toMatchObject({ outcome: 'refused', status });
  });

  it('refuses an accent colour under 4.5:1 against white, naming its ratio and a shade that passes', async () => {
    const ann = await signedIn('ann@mug.example');
    const refused = await ann.post({ accent_colour: '#ff7700' });
    expect(refused.status).toBe(400);
    expect(refused.html).toMatch(
      /contrast of 2\.\d\d:1; buyer pages need at least 4\.5:1 \(WCAG AA\)\. #[0-9a-f]{6} is the nearest darker shade/,
    );
    expect(refused.html).toMatch(/id="accent_colour"[^>]*aria-invalid="true"/);
    expect((await brandNow()).accentColour).toBe('#0a58ca');
  });

  it('a viewer sees no form and a forged post is refused (403); a post without the CSRF token too', async () => {
    const vic = await signedIn('vic@mug.example');
    expect((await vic.get('/dashboard/test/settings/brand')).html).toContain('Only an owner or an admin');
    expect((await vic.post({ accent_colour: '#000000', remove_logo: 'yes' })).status).toBe(403);
    const ann = await signedIn('ann@mug.example');
    expect((await ann.post({ accent_colour: '#000000', remove_logo: 'yes' }, undefined, 'forged')).status).toBe(403);
    expect(await brandNow()).toMatchObject({ accentColour: '#0a58ca', logoType: 'image/png' });
  });

  it('removes the logo when asked, keeping the colour typed', async () => {
    const ann = await signedIn('ann@mug.example');
    expect((await ann.post({ accent_colour: '#0a58ca', remove_logo: 'yes' })).status).toBe(303);
    expect(await brandNow()).toMatchObject({ accentColour: '#0a58ca' });
    expect((await brandNow()).logoSha256).toBeUndefined();
  });
});
