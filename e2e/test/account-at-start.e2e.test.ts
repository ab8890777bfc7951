// Risk covered (issue 35, item 1): a buyer's payment from a page made before the merchant changed the
// payout wallet — a reusable checkout (chk_), a payment link, or an API session started on the hosted
// page — locking and settling to the OLD wallet (a copy kept when the page was made), and a Live start
// going ahead after the wallet was removed. The buyer acts through the real pages server, the merchant
// changes the wallet through the gateway's admin listener (the dashboard's path), and the emulated
// processor pays and forwards as a real one would (docs/adr/0037). Real gateway, checkout, settlement,
// emulator, pages, PostgreSQL, NATS, HTTP and gRPC.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { loadPagesConfig, startPages, type RunningPages } from '@hc/pages';
import { MerchantAdminService } from '@hc/proto/accounts/v1';
import { bodyOf, createSession, eventually, type Json } from './e2e-helpers.ts';
import { startPlatform, WALLET, type Platform, type TestMerchant } from './platform-harness.ts';

const NEW_WALLET = '0x8888888888888888888888888888888888888888';

let platform: Platform;
let pages: RunningPages;
let admin: ServiceClient<typeof MerchantAdminService>;

beforeAll(async () => {
  platform = await startPlatform();
  pages = await startPages(
    loadPagesConfig({ PAGES_PORT: '0', CHECKOUT_GRPC_ADDRESS: platform.stack.checkout.address, LOG_LEVEL: 'silent' }),
    createLogger('pages-test', { level: 'silent' }),
  );
  admin = createServiceClient(MerchantAdminService, platform.accountsAddress, { timeoutMs: 10_000 });
}, 120_000);
afterAll(async () => {
  admin?.close();
  await pages?.stop();
  await platform?.stop();
});

async function cli(...args: string[]): Promise<Json> {
  const { code, stdout, stderr } = await platform.operator(...args);
  if (code !== 0) throw new Error(`operator ${args.join(' ')} exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as Json;
}

/** The merchant changes the payout wallet as the dashboard does it (the gateway's admin listener). */
async function merchantSetsWallet(merchant: TestMerchant, wallet: string): Promise<void> {
  const ctx: CallContext = { accountId: merchant.accountId, livemode: true, requestId: 'req_wallet' };
  const { account } = await admin.setPayoutWallet({ payoutWallet: wallet }, ctx);
  expect(account!.payoutWallet ?? '').toBe(wallet);
}

/** A form post to the pages server, as the buyer's browser sends it; answers the redirect target. */
async function post(path: string, fields: Record<string, string>): Promise<{ status: number; location: string | null }> {
  const response = await fetch(`${pages.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location') };
}

/** The buyer gives an email and a country on /pay/{id} (the hosted page's start). */
async function buyerStarts(id: string): Promise<void> {
  expect(await post(`/pay/${id}/start`, { email: 'buyer@example.com', country: 'US' })).toEqual({ status: 303, location: `/pay/${id}` });
}

const readLive = async (merchant: TestMerchant, id: string): Promise<Json> =>
  bodyOf(await platform.request('GET', `/v1/payments/${id}`, { key: merchant.liveKey }));

interface TimelineLine {
  kind: string;
  detail: Record<string, unknown>;
}

describe('a payment started after the merchant changed the payout wallet settles to the new wallet', () => {
  it('a Live checkout (chk_) made before the change: its buyer pays, the money is forwarded to the NEW wallet', async () => {
    const merchant = await platform.merchant();
    const checkout = await cli(
      'checkouts',
      'create',
      merchant.accountId,
      '--mode',
      'live',
      '--kind',
      'page',
      '--description',
      'Kettle',
      '--currency',
      'USD',
      '--amount',
      '21.55',
    );
    await merchantSetsWallet(merchant, NEW_WALLET);

    const visit = await post(`/c/${String(checkout['id'])}/pay`, {});
    expect(visit.status).toBe(303);
    const id = /^\/pay\/(pay_[A-Za-z0-9]+)$/.exec(visit.location ?? '')![1]!;
    await buyerStarts(id);
    expect(await readLive(merchant, id)).toMatchObject({ status: 'open', settlement: { payout_wallet: NEW_WALLET } });

    await cli('emulator', 'pay', merchant.accountId, id, '--mode', 'live', '--amount', '21.55');
    const paid = await eventually(
      () => readLive(merchant, id),
      (p) => p['status'] !== 'open',
    );
    expect(paid).toMatchObject({ status: 'paid', settlement: { payout_wallet: NEW_WALLET, merchant_received: '21.226750' } });
    const { code, stdout } = await platform.operator('payments', 'timeline', merchant.accountId, id, '--mode', 'live');
    expect(code).toBe(0);
    const lines = JSON.parse(stdout) as TimelineLine[];
    expect(lines.find((l) => l.kind === 'address_assigned')!.detail).toMatchObject({ payout_wallet: NEW_WALLET });
    expect(lines.find((l) => l.kind === 'forwarded')!.detail).toMatchObject({ forwarded_to: NEW_WALLET });
    expect(JSON.stringify(lines)).not.toContain(WALLET);
  });

  it('a Live payment link and an API session made before the change lock the NEW wallet when the buyer starts on the page', async () => {
    const merchant = await platform.merchant();
    const link = await cli(
      'links',
      'create',
      merchant.accountId,
      '--mode',
      'live',
      '--amount',
      '40',
      '--currency',
      'EUR',
      '--description',
      'Repair',
    );
    const session = await createSession(platform, merchant.liveKey, { amount: '12.00', currency: 'USD', description: 'Cup' });
    await merchantSetsWallet(merchant, NEW_WALLET);
    for (const id of [String(link['id']), String(session['id'])]) {
      await buyerStarts(id);
      expect(await readLive(merchant, id)).toMatchObject({ settlement: { payout_wallet: NEW_WALLET } });
    }
  });

  it('a Live start on the page after the wallet was removed is refused as an API start is: the page says so, nothing starts', async () => {
    const merchant = await platform.merchant();
    const session = await createSession(platform, merchant.liveKey, { amount: '12.00', currency: 'USD', description: 'Cup' });
    const id = String(session['id']);
    await merchantSetsWallet(merchant, '');
    const page = await fetch(`${pages.url}/pay/${id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('This shop cannot take payments right now');
    expect((await post(`/pay/${id}/start`, { email: 'buyer@example.com', country: 'US' })).location).toBe(`/pay/${id}`);
    expect(await readLive(merchant, id)).toMatchObject({ status: 'open', started_at: null, settlement: { payout_wallet: null } });
  });
});

// Issue 47 item 1 (docs/adr/0081): someone holding the merchant's dashboard points the wallet at their
// own, starts the merchant's open Live links on their public pages and goes to a provider; the merchant
// changes the wallet back. The processor asks settlement where to forward when the money arrives.
describe('a payment started while the wallet was someone else’s, paid after the merchant changed it back', () => {
  const ATTACKER = '0xbadbadbadbadbadbadbadbadbadbadbadbadbad0';

  async function linkStartedAtProvider(merchant: TestMerchant): Promise<string> {
    const link = await cli(
      'links',
      'create',
      merchant.accountId,
      '--mode',
      'live',
      '--amount',
      '30',
      '--currency',
      'USD',
      '--description',
      'Stool',
    );
    const id = String(link['id']);
    await buyerStarts(id);
    expect((await post(`/pay/${id}/provider`, { provider: 'cardrail' })).status).toBe(303);
    return id;
  }

  it('is forwarded to the restored wallet through the emulator, and says so on the payment and its timeline', async () => {
    const merchant = await platform.merchant();
    await merchantSetsWallet(merchant, ATTACKER);
    const id = await linkStartedAtProvider(merchant);
    expect(await readLive(merchant, id)).toMatchObject({ status: 'pending', settlement: { payout_wallet: ATTACKER } });
    await merchantSetsWallet(merchant, WALLET);

    await cli('emulator', 'pay', merchant.accountId, id, '--mode', 'live', '--amount', '30');
    const paid = await eventually(
      () => readLive(merchant, id),
      (p) => p['status'] !== 'pending',
    );
    expect(paid).toMatchObject({ status: 'paid', settlement: { payout_wallet: WALLET, merchant_received: '29.550000' } });
    const { code, stdout } = await platform.operator('payments', 'timeline', merchant.accountId, id, '--mode', 'live');
    expect(code).toBe(0);
    const lines = JSON.parse(stdout) as TimelineLine[];
    expect(lines.find((l) => l.kind === 'forward_target_decided')!.detail).toMatchObject({
      payout_wallet: WALLET,
      wallet_at_start: ATTACKER,
    });
    expect(lines.find((l) => l.kind === 'forwarded')!.detail).toMatchObject({ forwarded_to: WALLET });
  });

  it('a link nobody paid yet can be canceled by the merchant after the buyer went to a provider', async () => {
    const merchant = await platform.merchant();
    await merchantSetsWallet(merchant, ATTACKER);
    const id = await linkStartedAtProvider(merchant);
    await merchantSetsWallet(merchant, WALLET);
    expect(await cli('links', 'cancel', merchant.accountId, id, '--mode', 'live')).toMatchObject({ status: 'expired' });
    expect(await readLive(merchant, id)).toMatchObject({ status: 'expired', canceled_at: expect.any(Number) });
  });
});
