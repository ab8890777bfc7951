// Risk covered: a Live payment whose processor notice is late, never comes, or disagrees with the
// chain. The scheduled chain check (settlement) confirms on coin and amount from the chain (the
// emulator plays Polygon); a later notice fills the forwarding details (payment.updated) or, when it
// disagrees, is flagged on the payment's timeline while the status stays. Real PostgreSQL, NATS,
// HTTP and gRPC; the check's passes are run by the test (checkChainNow) so nothing waits on a timer.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { payThroughEmulator, signNotice, type PayOptions, type PayResult } from '@hc/emulator';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { eventually } from '@hc/test-kit';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';
import { logPaymentEvents, type PaymentEventLog } from './support/payment-event-log.ts';

const logger = createLogger('chain-check-test', { level: 'silent' });
const live: CallContext = { accountId: 'acct_CC', livemode: true, requestId: 'req_cc' };
const WALLET = '0x5555555555555555555555555555555555555555';
const account = { payoutWallet: WALLET, feeBps: 150 };
const LATE_NOTICE_MS = 1500;
// settlement's default notice secret, the one the emulator signs with.
const SECRET = 'whsec_bG9jYWwtZW11bGF0b3Itbm90aWNlLXNlY3JldC0wMDE=';
let stack: CheckoutStack;
let client: ServiceClient<typeof CheckoutService>;
let events: PaymentEventLog;

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'chain', emulatorEnv: { EMULATOR_LATE_NOTICE_MS: String(LATE_NOTICE_MS) } });
  // The account's owner has the wallet settlement names when the emulator forwards (docs/adr/0081).
  await stack.putAccount({ id: live.accountId, payoutWallet: WALLET });
  client = createServiceClient(CheckoutService, stack.checkout.address);
  events = await logPaymentEvents(stack, 'chain-check', logger);
});

afterAll(async () => {
  await events.stop();
  client.close();
  await stack.stop();
});

async function startedPayment(amount = '21.55'): Promise<Payment> {
  const { payment } = await client.createCheckoutSession(
    { amount, currency: 'USD', description: 'Teapot', customerEmail: 'ada@example.com', account },
    live,
  );
  return (await client.startCheckoutSession({ id: payment!.id, account }, live)).payment!;
}

const payment = async (id: string): Promise<Payment> => (await client.getCheckoutSession({ id }, live)).payment!;
const pay = (id: string, options: PayOptions): Promise<PayResult> => payThroughEmulator(stack.emulator.url, id, options);
const eventTypes = (id: string): string[] => events.typesOf(id);
const eventTypesThrough = (id: string, last: string, count = 1): Promise<string[]> =>
  eventually(
    async () => eventTypes(id),
    (types) => types.filter((t) => t === last).length >= count,
  );

interface Line {
  source: string;
  kind: string;
  detail: Record<string, unknown>;
}
async function timeline(id: string): Promise<Line[]> {
  const { entries } = await client.getPaymentTimeline({ id }, live);
  return entries.map((e) => ({ source: e.source, kind: e.kind, detail: JSON.parse(e.detailJson) as Record<string, unknown> }));
}
const kinds = (lines: Line[]): string[] => lines.map((l) => `${l.source}:${l.kind}`);

describe('the scheduled chain check', () => {
  it('confirms a payment whose notice never comes, on coin and amount, with nothing counted as forwarded yet', async () => {
    const p = await startedPayment();
    const paid = await pay(p.id, { amount: '21.55', coin: 'polygon_usdt', notice: 'never' });
    expect((await payment(p.id)).status).toBe('open');
    const pass = await stack.settlement.checkChainNow();
    expect(pass.confirmed).toBeGreaterThanOrEqual(1);
    const after = await eventually(
      () => payment(p.id),
      (x) => x.status === 'paid',
    );
    expect(after).toMatchObject({ coin: 'polygon_usdt', valueCoin: '21.550000', txidIn: paid.txid_in });
    expect(after.merchantReceived ?? null).toBeNull();
    expect(after.txidOut ?? null).toBeNull();
    expect(await eventTypesThrough(p.id, 'payment.paid')).toEqual(['payment.started', 'payment.paid']);
    expect(kinds(await timeline(p.id))).toEqual([
      'checkout:created',
      'checkout:started',
      'settlement:address_assigned',
      // The processor asked where to forward before it moved the money (docs/adr/0081).
      'settlement:forward_target_decided',
      'settlement:transfer_seen_on_chain',
      'settlement:verdict',
    ]);
  });

  it('lets a late notice that agrees fill merchant_received and txid_out through payment.updated', async () => {
    const p = await startedPayment();
    const paid = await pay(p.id, { amount: '21.55', notice: 'late' });
    await stack.settlement.checkChainNow();
    expect(
      (
        await eventually(
          () => payment(p.id),
          (x) => x.status === 'paid',
        )
      ).merchantReceived ?? null,
    ).toBeNull();
    // The emulator sends its notice LATE_NOTICE_MS after the payment.
    const filled = await eventually(
      () => payment(p.id),
      (x) => Boolean(x.merchantReceived),
      LATE_NOTICE_MS + 15_000,
    );
    expect(filled.status).toBe('paid');
    expect(filled).toMatchObject({ merchantReceived: '21.226750', txidIn: paid.txid_in, txidOut: paid.txid_out });
    expect(await eventTypesThrough(p.id, 'payment.updated')).toEqual(['payment.started', 'payment.paid', 'payment.updated']);
  });

  it('flags a late notice that disagrees with the chain on the timeline; the payment stays paid, no payment.updated', async () => {
    const p = await startedPayment();
    await pay(p.id, { amount: '21.55', notice: 'mismatch' });
    await stack.settlement.checkChainNow();
    const lines = await eventually(
      () => timeline(p.id),
      (l) => l.some((x) => x.kind === 'notice_mismatch'),
      LATE_NOTICE_MS + 15_000,
    );
    const mismatch = lines.find((x) => x.kind === 'notice_mismatch')!;
    expect(mismatch.detail).toMatchObject({ status_kept: 'paid' });
    expect(String(mismatch.detail['differences'])).toContain('20.550000 arrived, the chain showed 21.550000');
    const after = await payment(p.id);
    expect(after.status).toBe('paid');
    expect(after.merchantReceived ?? null).toBeNull();
    expect(await eventTypesThrough(p.id, 'payment.paid')).toEqual(['payment.started', 'payment.paid']);
  });

  it('flags a late notice showing the money forwarded to another wallet; the payment stays paid, nothing counted as received', async () => {
    const p = await startedPayment();
    await pay(p.id, { amount: '21.55', notice: 'late', forwardTo: '0x9999999999999999999999999999999999999999' });
    await stack.settlement.checkChainNow();
    const lines = await eventually(
      () => timeline(p.id),
      (l) => l.some((x) => x.kind === 'notice_mismatch'),
      LATE_NOTICE_MS + 15_000,
    );
    const mismatch = lines.find((x) => x.kind === 'notice_mismatch')!;
    expect(mismatch.detail).toMatchObject({ status_kept: 'paid' });
    expect(String(mismatch.detail['differences'])).toContain('0x9999999999999999999999999999999999999999');
    const after = await payment(p.id);
    expect(after.status).toBe('paid');
    expect(after.merchantReceived ?? null).toBeNull();
    expect(await eventTypesThrough(p.id, 'payment.paid')).toEqual(['payment.started', 'payment.paid']);
  });

  it('does nothing after an on-time notice decided: one verdict, one payment.paid', async () => {
    const p = await startedPayment();
    await pay(p.id, { amount: '21.55' });
    await eventually(
      () => payment(p.id),
      (x) => x.status === 'paid',
    );
    await stack.settlement.checkChainNow();
    await stack.settlement.checkChainNow();
    expect((await payment(p.id)).merchantReceived).toBe('21.226750');
    expect(await eventTypesThrough(p.id, 'payment.paid')).toEqual(['payment.started', 'payment.paid']);
    expect((await timeline(p.id)).filter((l) => l.kind === 'verdict')).toHaveLength(1);
  });

  it('decides once when notices and a chain check pass race: one paid verdict, one payment.paid, the forwarding filled', async () => {
    const payments = await Promise.all([1, 2, 3, 4, 5, 6].map(() => startedPayment()));
    const paid = await Promise.all(payments.map((p) => pay(p.id, { amount: '21.55', notice: 'never' })));
    const notices = paid.map((r) =>
      signNotice(
        SECRET,
        {
          type: 'transfer.forwarded',
          payment_id: r.payment_id,
          deposit_address: r.to_address,
          txid_in: r.txid_in,
          coin: r.coin,
          value_coin: r.value_coin,
          forwarded_to: r.forwarded_to,
          txid_out: r.txid_out,
          value_forwarded: r.value_forwarded,
        },
        new Date(),
      ),
    );
    // Each notice races a chain check pass (replicas splitting passes: services/settlement/test/chain-check-worker.int.test.ts).
    const answers = await Promise.all([
      ...notices.map(async (n) => {
        const response = await fetch(`http://${stack.settlement.noticesAddress}/notices`, {
          method: 'POST',
          headers: n.headers,
          body: n.body,
        });
        return response.status;
      }),
      stack.settlement.checkChainNow(),
    ]);
    expect(answers.slice(0, notices.length)).toEqual(notices.map(() => 200));
    for (const p of payments) {
      // Whichever came first, the notice's forwarding details end on the payment.
      const after = await eventually(
        () => payment(p.id),
        (x) => x.merchantReceived === '21.226750',
      );
      expect(after.status).toBe('paid');
      const verdicts = (await timeline(p.id)).filter((l) => l.kind === 'verdict');
      expect(verdicts.filter((l) => l.detail['kind'] === 'paid')).toHaveLength(1);
    }
    for (const p of payments) expect((await eventTypesThrough(p.id, 'payment.paid')).filter((t) => t === 'payment.paid')).toHaveLength(1);
  });

  it('confirms nothing short of 90%: the transfer goes on the timeline once, and the notice holds it', async () => {
    const p = await startedPayment();
    const paid = await pay(p.id, { amount: '18.40', notice: 'late' });
    await stack.settlement.checkChainNow();
    stack.clock.advance(60_000);
    await stack.settlement.checkChainNow();
    const seen = (await timeline(p.id)).filter((l) => l.kind === 'transfer_seen_on_chain');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.detail).toMatchObject({
      txid_in: paid.txid_in,
      confirmed: false,
      reason: '18.40 USDC arrived, 19.40 needed (90% of 21.55 USD).',
    });
    expect((await payment(p.id)).status).toBe('open');
    const held = await eventually(
      () => payment(p.id),
      (x) => x.status === 'held',
      LATE_NOTICE_MS + 15_000,
    );
    expect(held).toMatchObject({ holdAcceptable: true });
  });

  it('confirms exactly 90.00% from the chain', async () => {
    const p = await startedPayment();
    await pay(p.id, { amount: '19.395', notice: 'never' });
    await stack.settlement.checkChainNow();
    expect(
      (
        await eventually(
          () => payment(p.id),
          (x) => x.status === 'paid',
        )
      ).status,
    ).toBe('paid');
  });

  it('never confirms a transaction already used by another payment', async () => {
    const [first, second] = await Promise.all([startedPayment(), startedPayment()]);
    await pay(first.id, { amount: '21.55' });
    await eventually(
      () => payment(first.id),
      (x) => x.status === 'paid',
    );
    await pay(second.id, { amount: '21.55', reuseTxidOf: first.id, notice: 'never' });
    await stack.settlement.checkChainNow();
    const seen = (await timeline(second.id)).filter((l) => l.kind === 'transfer_seen_on_chain');
    // The reused transaction reaches the second address only if the emulator records it there; either
    // way the second payment is not confirmed.
    for (const line of seen) expect(line.detail['confirmed']).toBe(false);
    expect((await payment(second.id)).status).toBe('open');
  });

  it('pays an expired payment whose money the chain shows late: payment.expired, then payment.paid', async () => {
    const p = await startedPayment();
    stack.clock.advance(25 * 3600 * 1000);
    expect((await payment(p.id)).status).toBe('expired');
    await pay(p.id, { amount: '21.55', notice: 'never' });
    await stack.settlement.checkChainNow();
    await eventually(
      () => payment(p.id),
      (x) => x.status === 'paid',
    );
    expect(await eventTypesThrough(p.id, 'payment.paid')).toEqual(['payment.started', 'payment.expired', 'payment.paid']);
    expect(kinds(await timeline(p.id))).toContain('checkout:expired');
  });
});

describe('the payment timeline read', () => {
  it('is not_found for another account or mode', async () => {
    const p = await startedPayment();
    await expect(client.getPaymentTimeline({ id: p.id }, { ...live, accountId: 'acct_OTHER' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(client.getPaymentTimeline({ id: p.id }, { ...live, livemode: false })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('shows a payment never started with checkout lines only', async () => {
    const { payment } = await client.createCheckoutSession({ amount: '5.00', currency: 'USD', description: 'Mug', account }, live);
    expect(kinds(await timeline(payment!.id))).toEqual(['checkout:created']);
  });
});
