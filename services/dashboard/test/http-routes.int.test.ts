// Risk covered: the dashboard's edge letting a page through without sign-in, taking a change without
// its CSRF token or from another site, asking a service in another account's or mode's name, or
// answering a service's refusal with the wrong page or status. The dashboard's Express app runs
// in-process over real HTTP with its real user store on PostgreSQL, against stand-ins for the gateway's
// admin listener, checkout, customers and webhooks (@hc/test-kit/fake-client, issue 31); what is behind
// the gRPC contract is tested in each service, and e2e keeps the browser walks through the platform.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
import type { CallContext, ServiceClient } from '@hc/grpc';
import { CheckoutAdminService, CheckoutService } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';
import { MerchantAdminService } from '@hc/proto/accounts/v1';
import { WebhooksService } from '@hc/proto/webhooks/v1';
import { NotificationsService } from '@hc/proto/notifications/v1';
import { secretBoxFromEnv } from '@hc/secrets';
import { captureLogs, createTestDatabase, TEST_SECRETS_ENCRYPTION_KEYS, type TestDatabase } from '@hc/test-kit';
import { fakeClient, type FakeClient } from '@hc/test-kit/fake-client';
import { DASHBOARD_MIGRATIONS_DIR } from '../src/migrations.ts';
import { AuditStore } from '../src/store/audit-store.ts';
import { NoticeStore } from '../src/store/notice-store.ts';
import { TeamStore } from '../src/store/team-store.ts';
import { createDashboardPrisma, type DashboardPrisma } from '../src/store/prisma.ts';
import { UserStore } from '../src/store/user-store.ts';
import { createUser } from '../src/use-cases/create-user.ts';
import { serveDashboardApp } from './support/served-app.ts';

type Checkout = ServiceClient<typeof CheckoutService>;

const logs = captureLogs();
const PASSWORD = 'correct horse battery staple 42';
let db: TestDatabase;
let prisma: DashboardPrisma;
let served: Awaited<ReturnType<typeof serveDashboardApp>>;
let base: string;
let checkout: FakeClient<Checkout>;
let admin: FakeClient<ServiceClient<typeof MerchantAdminService>>;
let checkoutAdmin: FakeClient<ServiceClient<typeof CheckoutAdminService>>;
let customers: FakeClient<ServiceClient<typeof CustomersService>>;
let webhooks: FakeClient<ServiceClient<typeof WebhooksService>>;
/** Every call the dashboard made of any service, in order. */
const allCalls = () => [admin, checkout, checkoutAdmin, customers, webhooks].flatMap((fake) => fake.calls);
const WALLET = '0x2222222222222222222222222222222222222222';

/** Checkout's payments as the stand-in keeps them, each in its account and mode. */
const payments = new Map<string, { accountId: string; livemode: boolean; status: string }>([
  ['pay_A1', { accountId: 'acct_A', livemode: false, status: 'held' }],
  ['pay_A2', { accountId: 'acct_A', livemode: true, status: 'paid' }],
  ['pay_B1', { accountId: 'acct_B', livemode: false, status: 'open' }],
  ['pay_DOWN', { accountId: 'acct_A', livemode: false, status: 'open' }],
  ['pay_DBLOST', { accountId: 'acct_A', livemode: false, status: 'open' }],
]);
/** A payment's fields as checkout answers them (the stand-in builds the message). */
const paymentMessage = (id: string) =>
  ({
    id,
    url: `https://pay.example/pay/${id}`,
    status: payments.get(id)!.status,
    mode: payments.get(id)!.livemode ? 'live' : 'test',
    source: 'api',
    amount: '19.90',
    currency: 'USD',
    description: `Mug ${id}`,
    createdAt: 1795319832_000n,
    expiresAt: 1795406232_000n,
    holdReason: payments.get(id)!.status === 'held' ? 'underpaid' : undefined,
    holdAcceptable: true,
  }) as const;
function owned(id: string, ctx: CallContext): void {
  const found = payments.get(id);
  if (!found || found.accountId !== ctx.accountId || found.livemode !== ctx.livemode) throw new ApiError('not_found', 'No such payment.');
  if (id === 'pay_DOWN') throw new ApiError('service_unavailable');
  // node-postgres's error for a connection cut at a database failover (docs/adr/0091), as a store throws it.
  if (id === 'pay_DBLOST') throw new Error('Connection terminated unexpectedly');
}

beforeAll(async () => {
  db = await createTestDatabase('dashboard', DASHBOARD_MIGRATIONS_DIR);
  prisma = createDashboardPrisma(db.url);
  const deps = {
    users: new UserStore(prisma, secretBoxFromEnv(TEST_SECRETS_ENCRYPTION_KEYS)),
    notices: new NoticeStore(prisma),
    team: new TeamStore(prisma),
    audit: new AuditStore(prisma),
    now: () => new Date(),
    publicBaseUrl: 'http://dashboard.test',
  };
  await createUser(deps, { accountId: 'acct_A', email: 'ann@shop-a.example', password: PASSWORD });
  await createUser(deps, { accountId: 'acct_B', email: 'bob@shop-b.example', password: PASSWORD });
  await createUser(deps, { accountId: 'acct_S', email: 'sue@suspended.example', password: PASSWORD });
  admin = fakeClient<typeof MerchantAdminService, CallContext>(MerchantAdminService, {
    async getAccount(_request, ctx) {
      const status = ctx.accountId === 'acct_S' ? 'suspended' : 'active';
      return { account: { id: ctx.accountId, name: `Shop ${ctx.accountId}`, status, feeBps: 150 } };
    },
    async listApiKeys() {
      return { keys: [{ id: 'key_1', hint: 'sk_test_…a1b2', label: 'Shop server', created: '2026-01-01T00:00:00Z' }] };
    },
    async createApiKey(request, ctx) {
      if (ctx.accountId === 'acct_S') throw new ApiError('suspended');
      return {
        key: { id: 'key_2', hint: 'sk_live_…c3d4', label: request.label, created: '2026-01-02T00:00:00Z' },
        secret: 'sk_live_SHOWNONCE',
      };
    },
    async setPayoutWallet(request) {
      if (!/^0x[0-9a-f]{40}$/i.test(request.payoutWallet))
        throw new ApiError('invalid_request', 'That is not a Polygon address.', 'payout_wallet');
      return {};
    },
  });
  checkout = fakeClient<typeof CheckoutService, CallContext>(CheckoutService, {
    async listPayments(_request, ctx) {
      const mine = [...payments].filter(
        ([id, p]) => p.accountId === ctx.accountId && p.livemode === ctx.livemode && !['pay_DOWN', 'pay_DBLOST'].includes(id),
      );
      return { data: mine.map(([id]) => paymentMessage(id)), hasMore: false };
    },
    async getCheckoutSession(request, ctx) {
      owned(request.id, ctx);
      return { payment: paymentMessage(request.id) };
    },
    async getEventsPosition() {
      return { streamSequence: 7n };
    },
    async getPaymentTimeline() {
      return { entries: [] };
    },
    async acceptHeldPayment(request, ctx) {
      owned(request.id, ctx);
      payments.get(request.id)!.status = 'paid';
      return { updated: paymentMessage(request.id) };
    },
  });
  webhooks = fakeClient<typeof WebhooksService, CallContext>(WebhooksService, {
    async listEvents() {
      return { events: [], hasMore: false };
    },
    async listEndpoints() {
      return {};
    },
    async createEndpoint(request) {
      if (!request.url.startsWith('https://')) throw new ApiError('invalid_url', 'url must be an https:// address.', 'url');
      return { endpoint: { id: 'we_1', url: request.url, enabledEvents: request.enabledEvents }, secret: 'whsec_SHOWNONCE' };
    },
  });
  checkoutAdmin = fakeClient<typeof CheckoutAdminService, CallContext>(CheckoutAdminService, {
    async getOverview(request) {
      const days = Array.from({ length: request.days }, (_, i) => ({ date: `2026-03-${String(10 + i).padStart(2, '0')}` }));
      return {
        counts: { paid: 2n, held: 1n },
        volume: [{ currency: 'USD', amount: '11.30' }],
        days: days.map((day, i) =>
          i === days.length - 1 ? { ...day, volume: [{ currency: 'USD', amount: '11.30' }], counts: { paid: 2n } } : day,
        ),
      };
    },
    async listPaymentLinks() {
      return {};
    },
    async listCheckouts() {
      return {};
    },
    async createPaymentLink(request) {
      // Checkout's rule (tested there): the dashboard shows its refusal on the form.
      if (!/^[0-9]+(\.[0-9]{1,2})?$/.test(request.amount)) throw new ApiError('invalid_amount', 'Enter an amount like 12.50.', 'amount');
      throw new ApiError('internal_error');
    },
  });
  customers = fakeClient<typeof CustomersService, CallContext>(CustomersService, {
    async listCustomers() {
      return {};
    },
  });
  // No route of these tests reaches Settings → Emails: any notifications call fails the test.
  const notifications = fakeClient<typeof NotificationsService, CallContext>(NotificationsService, {}).client;
  const platform = { admin: admin.client, checkout: checkout.client, checkoutAdmin: checkoutAdmin.client, customers: customers.client };
  served = await serveDashboardApp(deps, { ...platform, webhooks: webhooks.client, notifications }, logs.destination);
  base = served.base;
});

afterAll(async () => {
  await served.close();
  await prisma.$disconnect();
  await db.drop();
});

beforeEach(() => {
  for (const fake of [admin, checkout, checkoutAdmin, customers, webhooks]) fake.calls.length = 0;
});

/** One browser: its session cookie, and its requests as the dashboard's own pages send them. */
function browser(address: string) {
  let cookie: string | undefined;
  const request = async (method: string, path: string, form?: Record<string, string>, headers: Record<string, string> = {}) => {
    const sent: Record<string, string> = {
      'x-forwarded-for': address,
      ...(cookie ? { cookie } : {}),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' } : {}),
      ...headers,
    };
    // An empty value leaves the header out (a browser that sends no Sec-Fetch-Site, only Origin).
    for (const [name, value] of Object.entries(sent)) if (value === '') delete sent[name];
    const response = await fetch(`${base}${path}`, {
      method,
      redirect: 'manual',
      headers: sent,
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const set = response.headers.get('set-cookie');
    if (set) cookie = /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(set) ? undefined : set.split(';')[0];
    return { status: response.status, headers: response.headers, html: await response.text(), setCookie: set };
  };
  return {
    get: (path: string) => request('GET', path),
    post: (path: string, form: Record<string, string>, headers: Record<string, string> = {}) => request('POST', path, form, headers),
    /** The CSRF token of the session, as a page of it carries it. */
    async csrf(): Promise<string> {
      const page = await request('GET', '/dashboard/test/payments');
      return /name="_csrf" value="([^"]+)"/.exec(page.html)![1]!;
    },
    async signIn(email: string, password = PASSWORD) {
      return request('POST', '/dashboard/sign-in', { email, password, next: '/dashboard/test/payments' });
    },
  };
}

describe('sign-in', () => {
  it('sends a page behind sign-in to the sign-in page (GET) or refuses it (POST), asking no service', async () => {
    const b = browser('192.0.2.1');
    const page = await b.get('/dashboard/test/payments?status=held');
    expect([page.status, page.headers.get('location')]).toEqual([
      303,
      '/dashboard/sign-in?next=%2Fdashboard%2Ftest%2Fpayments%3Fstatus%3Dheld',
    ]);
    const change = await b.post('/dashboard/test/payments/pay_A1/accept', {});
    expect(change.status).toBe(403);
    expect(checkout.calls).toEqual([]);
  });

  it('refuses a wrong password with 401 and no session; the right one sets an HttpOnly, SameSite cookie on /dashboard', async () => {
    const b = browser('192.0.2.2');
    const wrong = await b.signIn('ann@shop-a.example', 'not the password at all');
    expect([wrong.status, wrong.setCookie]).toEqual([401, null]);
    expect(wrong.html).toContain('Error: Sign in');
    const right = await b.signIn('ann@shop-a.example');
    expect([right.status, right.headers.get('location')]).toEqual([303, '/dashboard/test/payments']);
    expect(right.setCookie).toMatch(/^hc_dashboard=[^;]+;.*Path=\/dashboard.*HttpOnly.*SameSite=Lax/i);
    const page = await b.get('/dashboard/test/payments');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('signs out on a form post with the token: the cookie is cleared and the pages need sign-in again', async () => {
    const b = browser('192.0.2.3');
    await b.signIn('ann@shop-a.example');
    const out = await b.post('/dashboard/sign-out', { _csrf: await b.csrf() });
    expect(out.status).toBe(303);
    expect((await b.get('/dashboard/test/payments')).status).toBe(303);
  });
});

describe('isolation: the account is the signed-in user’s, the mode the URL’s', () => {
  it("lists the user's own payments of the URL's mode, asking checkout in that account and mode", async () => {
    const b = browser('192.0.2.4');
    await b.signIn('ann@shop-a.example');
    const test = await b.get('/dashboard/test/payments');
    expect(test.html).toContain('pay_A1');
    expect(test.html).not.toContain('pay_A2');
    expect(test.html).not.toContain('pay_B1');
    const live = await b.get('/dashboard/live/payments');
    expect(live.html).toContain('pay_A2');
    expect(checkout.callsOf('listPayments').map((c) => c.ctx)).toEqual([
      expect.objectContaining({ accountId: 'acct_A', livemode: false }),
      expect.objectContaining({ accountId: 'acct_A', livemode: true }),
    ]);
  });

  it("answers another account's payment, or one of the other mode, with the 404 page", async () => {
    const b = browser('192.0.2.5');
    await b.signIn('bob@shop-b.example');
    expect((await b.get('/dashboard/test/payments/pay_B1')).status).toBe(200);
    for (const path of ['/dashboard/test/payments/pay_A1', '/dashboard/live/payments/pay_B1']) {
      const page = await b.get(path);
      expect(page.status).toBe(404);
      expect(page.html).not.toContain('Mug pay_A1');
    }
    expect(checkout.callsOf('getCheckoutSession').every((c) => (c.ctx as CallContext).accountId === 'acct_B')).toBe(true);
  });

  it('answers a mode that is neither test nor live with the 404 page, asking no service', async () => {
    const b = browser('192.0.2.6');
    await b.signIn('ann@shop-a.example');
    expect((await b.get('/dashboard/prod/payments')).status).toBe(404);
    expect(checkout.calls).toEqual([]);
  });
});

describe('CSRF on every change', () => {
  it('refuses a change without the token, with a wrong one, or from another site (403), and changes nothing', async () => {
    const b = browser('192.0.2.7');
    await b.signIn('ann@shop-a.example');
    const token = await b.csrf();
    const attempts = [
      await b.post('/dashboard/test/payments/pay_A1/accept', {}),
      await b.post('/dashboard/test/payments/pay_A1/accept', { _csrf: `${token}x` }),
      await b.post('/dashboard/test/payments/pay_A1/accept', { _csrf: token }, { 'sec-fetch-site': 'cross-site' }),
      await b.post('/dashboard/test/payments/pay_A1/accept', { _csrf: token }, { 'sec-fetch-site': '', origin: 'https://evil.example' }),
    ];
    expect(attempts.map((a) => a.status)).toEqual([403, 403, 403, 403]);
    expect(attempts[0]!.html).toContain('Request refused');
    expect(checkout.callsOf('acceptHeldPayment')).toEqual([]);
  });

  it("takes a change with the session's token from its own page: accepted, then back to the payment (303)", async () => {
    const b = browser('192.0.2.8');
    await b.signIn('ann@shop-a.example');
    const accepted = await b.post('/dashboard/test/payments/pay_A1/accept', { _csrf: await b.csrf() });
    expect([accepted.status, accepted.headers.get('location')]).toEqual([303, '/dashboard/test/payments/pay_A1']);
    expect(checkout.callsOf('acceptHeldPayment').map((c) => [c.request, c.ctx])).toEqual([
      [expect.objectContaining({ id: 'pay_A1' }), expect.objectContaining({ accountId: 'acct_A', livemode: false })],
    ]);
    expect((await b.get('/dashboard/test/payments/pay_A1')).html).toContain('Accepted as paid.');
  });

  it("another user's token does not open this user's session", async () => {
    const ann = browser('192.0.2.9');
    const bob = browser('192.0.2.10');
    await ann.signIn('ann@shop-a.example');
    await bob.signIn('bob@shop-b.example');
    const forged = await ann.post('/dashboard/test/payments/pay_A1/accept', { _csrf: await bob.csrf() });
    expect(forged.status).toBe(403);
  });
});

describe('failures behind the edge', () => {
  it("a service that does not answer is the 503 'try again' page; a bug is a logged 500 page with the reference", async () => {
    const b = browser('192.0.2.11');
    await b.signIn('ann@shop-a.example');
    const down = await b.get('/dashboard/test/payments/pay_DOWN');
    expect([down.status, down.html.includes('Try again shortly')]).toEqual([503, true]);
    // A database briefly away (a failover) is the same 'try again' page, not a bug's 500.
    const lost = await b.get('/dashboard/test/payments/pay_DBLOST');
    expect([lost.status, lost.html.includes('Try again shortly')]).toEqual([503, true]);
    // The stand-in has no getCustomer: a plain Error, as a bug would throw.
    const bug = await b.get('/dashboard/test/customers/cus_1');
    expect(bug.status).toBe(500);
    expect(bug.html).toMatch(/Reference: \S+/);
    expect(bug.html).not.toContain('unexpected call');
    expect(logs.lines.some((line) => line['msg'] === 'dashboard page failed')).toBe(true);
  });
});

describe('every page of a mode, in the signed-in account and that mode only', () => {
  const pages = [
    'overview',
    'overview?period=today',
    'overview?period=30d',
    'payments',
    'customers',
    'links',
    'links/new',
    'links/checkouts/new',
    'developers',
    'developers/events',
    'developers/endpoints/new',
    'settings',
  ];
  it.each(['test', 'live'])('%s: each page is 200 and every service call names acct_A and the mode', async (mode) => {
    const b = browser(`192.0.2.${mode === 'test' ? 20 : 21}`);
    await b.signIn('ann@shop-a.example');
    for (const page of pages) {
      const answer = await b.get(`/dashboard/${mode}/${page}`);
      expect([page, answer.status]).toEqual([page, 200]);
    }
    expect(allCalls().length).toBeGreaterThanOrEqual(pages.length);
    // Customers are read after checkout's answered writes (the read barrier, docs/adr/0011).
    expect(customers.callsOf('listCustomers')[0]!.request).toMatchObject({ barrier: { checkoutSequence: 7n } });
    expect(allCalls().filter((c) => !matches(c.ctx, 'acct_A', mode === 'live'))).toEqual([]);
  });
});

describe('overview', () => {
  it('asks checkout for the chosen period (7 days unless told) and draws the figures as accessible SVG', async () => {
    const b = browser('192.0.2.22');
    await b.signIn('ann@shop-a.example');
    expect((await b.get('/dashboard/test')).headers.get('location')).toBe('/dashboard/test/overview');
    const before = checkoutAdmin.callsOf('getOverview').length;
    for (const [query, days] of [
      ['', 7],
      ['?period=today', 1],
      ['?period=30d', 30],
      ['?period=nonsense', 7],
    ] as const) {
      const page = await b.get(`/dashboard/test/overview${query}`);
      expect(page.status).toBe(200);
      expect(checkoutAdmin.callsOf('getOverview').at(-1)!.request).toMatchObject({ days });
      expect(page.html).toContain('<svg class="chart" id="volume-USD"');
      expect(page.html).toMatch(/role="img" aria-labelledby="by-status-title by-status-desc"/);
      expect(page.html).toContain('11.30 USD');
      expect(page.html).not.toMatch(/style=|<script>/);
    }
    expect(checkoutAdmin.callsOf('getOverview').length).toBe(before + 4);
  });
});

const matches = (ctx: unknown, accountId: string, livemode: boolean) =>
  (ctx as CallContext).accountId === accountId && (ctx as CallContext).livemode === livemode;

describe('forms', () => {
  it("shows a new key's secret on the answer itself (200, no redirect), made in the URL's mode", async () => {
    const b = browser('192.0.2.30');
    await b.signIn('ann@shop-a.example');
    const created = await b.post('/dashboard/live/developers/keys', { _csrf: await b.csrf(), label: 'Shop server' });
    expect(created.status).toBe(200);
    expect(created.html).toContain('sk_live_SHOWNONCE');
    expect(admin.callsOf('createApiKey').map((c) => [c.request, matches(c.ctx, 'acct_A', true)])).toEqual([
      [expect.objectContaining({ label: 'Shop server' }), true],
    ]);
  });

  it("a suspended account's key request is refused before the gateway is asked (403, says so), no secret", async () => {
    const b = browser('192.0.2.31');
    await b.signIn('sue@suspended.example');
    const asked = admin.callsOf('createApiKey').length;
    const refused = await b.post('/dashboard/test/developers/keys', { _csrf: await b.csrf(), label: 'x' });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('This account is suspended');
    expect(refused.html).not.toContain('sk_');
    expect(admin.callsOf('createApiKey')).toHaveLength(asked);
  });

  it('changes the payout wallet only with the password: a wrong one is 401 and the gateway is not asked', async () => {
    const b = browser('192.0.2.32');
    await b.signIn('ann@shop-a.example');
    const token = await b.csrf();
    const wrong = await b.post('/dashboard/live/settings/payout-wallet', {
      _csrf: token,
      payout_wallet: WALLET,
      password: 'guess',
      code: '',
    });
    expect(wrong.status).toBe(401);
    expect(admin.callsOf('setPayoutWallet')).toEqual([]);
    const bad = await b.post('/dashboard/live/settings/payout-wallet', {
      _csrf: token,
      payout_wallet: '0x12',
      password: PASSWORD,
      code: '',
    });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('That is not a Polygon address.');
    const right = await b.post('/dashboard/live/settings/payout-wallet', {
      _csrf: token,
      payout_wallet: WALLET,
      password: PASSWORD,
      code: '',
    });
    expect([right.status, right.headers.get('location')]).toEqual([303, '/dashboard/live/settings']);
    expect(admin.callsOf('setPayoutWallet').map((c) => [c.request, matches(c.ctx, 'acct_A', true)])).toEqual([
      [expect.objectContaining({ payoutWallet: '0x12' }), true],
      [expect.objectContaining({ payoutWallet: WALLET }), true],
    ]);
    // The notice names the Live payments started and unpaid at the change (docs/adr/0081).
    const listed = checkout
      .callsOf('listPayments')
      .filter((c) => matches(c.ctx, 'acct_A', true) && (c.request as { status?: string }).status !== undefined);
    expect(listed.map((c) => (c.request as { status?: string }).status)).toEqual(expect.arrayContaining(['pending', 'open']));
  });

  it("shows checkout's refusal of a payment link on the form with its status, the account sent as the gateway has it", async () => {
    const b = browser('192.0.2.33');
    await b.signIn('ann@shop-a.example');
    const form = { _csrf: await b.csrf(), amount: 'twelve', currency: 'EUR', description: 'Consulting', lifetime: '7d' };
    const refused = await b.post('/dashboard/test/links', form);
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('Enter an amount like 12.50.');
    expect(refused.html).toContain('value="twelve"');
    expect(checkoutAdmin.callsOf('createPaymentLink').map((c) => c.request)).toEqual([
      expect.objectContaining({ amount: 'twelve', account: expect.objectContaining({ merchantName: 'Shop acct_A', feeBps: 150 }) }),
    ]);
  });

  it('refuses a link from a suspended account before checkout is asked', async () => {
    const b = browser('192.0.2.34');
    await b.signIn('sue@suspended.example');
    const refused = await b.post('/dashboard/test/links', {
      _csrf: await b.csrf(),
      amount: '12.00',
      currency: 'EUR',
      description: 'x',
      lifetime: '7d',
    });
    expect(refused.status).toBe(403);
    expect(checkoutAdmin.callsOf('createPaymentLink')).toEqual([]);
  });
});

describe('webhook endpoints', () => {
  it("adds an endpoint in the URL's mode and shows its signing secret on the answer; the service's refusal is shown on the form", async () => {
    const b = browser('192.0.2.40');
    await b.signIn('ann@shop-a.example');
    const token = await b.csrf();
    const refused = await b.post('/dashboard/live/developers/endpoints', {
      _csrf: token,
      url: 'http://shop.example/hooks',
      description: '',
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('url must be an https:// address.');
    const added = await b.post('/dashboard/live/developers/endpoints', {
      _csrf: token,
      url: 'https://shop.example/hooks',
      description: '',
    });
    expect(added.status).toBe(200);
    expect(added.html).toContain('whsec_SHOWNONCE');
    expect(webhooks.callsOf('createEndpoint').map((c) => matches(c.ctx, 'acct_A', true))).toEqual([true, true]);
  });
});
