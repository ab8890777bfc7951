// Risk covered (issue 47 item 1, docs/adr/0081): a wallet changed by someone holding the merchant's
// dashboard outlives the merchant's change back. Payment links started (and taken to a provider) while
// the wallet was the attacker's must be forwarded to the wallet the account has when the money is
// forwarded. Real accounts service (the accounts' owner), settlement, the processor emulator over
// HTTP, PostgreSQL and JetStream.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { payThroughEmulator, signForwardQuestion } from '@hc/emulator';
import { createServiceClient, type CallContext, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutAdminService, CheckoutService, HostedCheckoutService } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { eventually } from '@hc/test-kit';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';

const logger = createLogger('wallet-at-forward-test', { level: 'silent' });
const live: CallContext = { accountId: 'acct_WF', livemode: true, requestId: 'req_wf' };
const buyer: PublicCallContext = { requestId: 'req_wf_buyer' };
const MERCHANT = '0x1111111111111111111111111111111111111111';
const ATTACKER = '0xbadbadbadbadbadbadbadbadbadbadbadbadbad0';
const account = { payoutWallet: MERCHANT, feeBps: 150, merchantName: 'Wallet shop' };
/** The emulator's published notice secret (local mode, docs/adr/0016); the processor signs its questions with it. */
const SECRET = 'whsec_bG9jYWwtZW11bGF0b3Itbm90aWNlLXNlY3JldC0wMDE=';
let stack: CheckoutStack;
let admin: ServiceClient<typeof CheckoutAdminService>;
let checkout: ServiceClient<typeof CheckoutService>;
let hosted: ServiceClient<typeof HostedCheckoutService, PublicCallContext>;

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'walletfwd' });
  await stack.putAccount({ id: live.accountId, payoutWallet: MERCHANT, feeBps: 150 });
  admin = createServiceClient(CheckoutAdminService, stack.checkout.address);
  checkout = createServiceClient(CheckoutService, stack.checkout.address);
  hosted = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(HostedCheckoutService, stack.checkout.address);
});

afterAll(async () => {
  admin.close();
  checkout.close();
  hosted.close();
  await stack.stop();
});

/** A Live link started from its public page and taken to a provider, as anyone can. */
async function linkAtProvider(): Promise<string> {
  const { payment: link } = await admin.createPaymentLink(
    { amount: '20', currency: 'USD', description: 'Lamp', customerEmail: 'eve@example.com', account },
    live,
  );
  const id = link!.id;
  await hosted.startHostedSession({ id }, buyer);
  await hosted.reachHostedProvider({ id, provider: 'cardrail' }, buyer);
  return id;
}

const payment = async (id: string): Promise<Payment> => (await checkout.getCheckoutSession({ id }, live)).payment!;
const decided = (id: string): Promise<Payment> =>
  eventually(
    () => payment(id),
    (p) => p.status === 'paid' || p.status === 'held',
  );

async function timelineKinds(id: string): Promise<Record<string, unknown>[]> {
  const { entries } = await checkout.getPaymentTimeline({ id }, live);
  return entries.map((e) => ({ kind: e.kind, ...(JSON.parse(e.detailJson) as Record<string, unknown>) }));
}

describe('the payout wallet is decided when the money is forwarded', () => {
  it('a link started while the wallet was changed is forwarded to the wallet restored before it was paid', async () => {
    await stack.accounts.operations.setPayoutWallet(live.accountId, ATTACKER);
    const id = await linkAtProvider();
    // Until money is forwarded, the payment shows the wallet of its start.
    expect(await payment(id)).toMatchObject({ status: 'pending', payoutWallet: ATTACKER });
    await stack.accounts.operations.setPayoutWallet(live.accountId, MERCHANT);

    const paid = await payThroughEmulator(stack.emulator.url, id, { amount: '20' });
    expect(paid.forwarded_to).toBe(MERCHANT);
    const after = await decided(id);
    expect(after.status).toBe('paid');
    // The fee is the one locked at start; the wallet the one paid to.
    expect(after).toMatchObject({ payoutWallet: MERCHANT, merchantReceived: '19.700000', txidOut: paid.txid_out });
    expect(await timelineKinds(id)).toContainEqual(
      expect.objectContaining({
        kind: 'forward_target_decided',
        txid_in: paid.txid_in,
        payout_wallet: MERCHANT,
        wallet_at_start: ATTACKER,
      }),
    );
  });

  it('money a processor forwards to the old wallet anyway is held, not acceptable', async () => {
    await stack.accounts.operations.setPayoutWallet(live.accountId, ATTACKER);
    const id = await linkAtProvider();
    await stack.accounts.operations.setPayoutWallet(live.accountId, MERCHANT);
    await payThroughEmulator(stack.emulator.url, id, { amount: '20', forwardTo: ATTACKER });
    const after = await decided(id);
    expect(after).toMatchObject({ status: 'held', holdAcceptable: false, payoutWallet: MERCHANT });
    expect(after.holdReason).toContain(ATTACKER);
  });

  it('with no wallet on the account when the money arrives, nothing is forwarded (never to the wallet of the start)', async () => {
    const id = await linkAtProvider();
    await stack.accounts.operations.setPayoutWallet(live.accountId, null);
    try {
      const kept = await payThroughEmulator(stack.emulator.url, id, { amount: '20' });
      expect(kept).toMatchObject({ forwarded_to: null, txid_out: null, notice: { deliveries: [] } });
      expect((await payment(id)).status).toBe('pending');
    } finally {
      await stack.accounts.operations.setPayoutWallet(live.accountId, MERCHANT);
    }
  });

  it('a link nobody paid, started while the wallet was changed, can be canceled by the merchant', async () => {
    await stack.accounts.operations.setPayoutWallet(live.accountId, ATTACKER);
    const id = await linkAtProvider();
    await stack.accounts.operations.setPayoutWallet(live.accountId, MERCHANT);
    const { payment: link } = await admin.cancelPaymentLink({ id }, live);
    expect(link!).toMatchObject({ status: 'expired' });
    await expect(hosted.startHostedSession({ id }, buyer)).rejects.toMatchObject({ code: 'canceled' });
  });

  it('answers a repeated question for a transfer with the first decision, even after the wallet changed; refuses forged and unknown ones', async () => {
    const id = await linkAtProvider();
    const ask = async (secret: string, paymentId: string, txidIn: string) => {
      const question = signForwardQuestion(secret, paymentId, txidIn, new Date());
      const response = await fetch(`http://${stack.settlement.noticesAddress}/forward-target`, {
        method: 'POST',
        headers: question.headers,
        body: question.body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await ask(SECRET, id, '0xaaa')).toEqual({ status: 200, body: { payment_id: id, txid_in: '0xaaa', payout_wallet: MERCHANT } });
    await stack.accounts.operations.setPayoutWallet(live.accountId, ATTACKER);
    try {
      // A processor retrying after a lost answer is never sent to a second wallet for the same transfer.
      expect((await ask(SECRET, id, '0xaaa')).body).toMatchObject({ payout_wallet: MERCHANT });
      // A new transfer is decided afresh, from the wallet the account has now.
      expect((await ask(SECRET, id, '0xbbb')).body).toMatchObject({ payout_wallet: ATTACKER });
    } finally {
      await stack.accounts.operations.setPayoutWallet(live.accountId, MERCHANT);
    }
    expect((await ask('whsec_Zm9yZ2VkLWZvcmdlZC1mb3JnZWQtZm9yZ2VkLWZvcmdlZDE=', id, '0xccc')).status).toBe(401);
    expect(await ask(SECRET, 'pay_00000000000000000000000000', '0xaaa')).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });
});
