// Risk covered (issue 51): the merchant cancels a payment link at the moment the buyer clicks a
// provider on the hosted page, and both win: the cancel answers the link canceled while the page hands
// the buyer over to pay it. Real HTTP to the pages server, real gRPC to checkout and settlement, real
// PostgreSQL; the two requests fired together many times.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type PublicCallContext, type ServiceClient } from '@hc/grpc';
import { CheckoutAdminService, HostedCheckoutService } from '@hc/proto/checkout/v1';
import { ACCOUNT, merchant, startPagesHarness, type PagesHarness } from './pages-harness.ts';

const ROUNDS = 30;
const buyer: PublicCallContext = { requestId: 'req_buyer' };
let h: PagesHarness;
let admin: ServiceClient<typeof CheckoutAdminService>;
let hosted: ServiceClient<typeof HostedCheckoutService, PublicCallContext>;

beforeAll(async () => {
  // Every round is one buyer action from this one address: room for all of them within a minute.
  h = await startPagesHarness('pages-cancel-click', { PAGES_ACTIONS_PER_MINUTE: '1000' });
  admin = createServiceClient(CheckoutAdminService, h.stack.checkout.address);
  hosted = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(HostedCheckoutService, h.stack.checkout.address);
}, 60_000);

afterAll(async () => {
  admin.close();
  hosted.close();
  await h.stop();
});

/** A payment link the buyer started: the page now offers its providers. */
async function startedLink(): Promise<{ id: string; provider: string }> {
  const { payment: link } = await admin.createPaymentLink(
    { amount: '75', currency: 'eur', description: 'Table repair', customerEmail: 'ada@example.com', account: ACCOUNT },
    merchant,
  );
  const id = link!.id;
  const { session } = await hosted.startHostedSession({ id }, buyer);
  return { id, provider: session!.providers[0]!.id };
}

/** The buyer's click on a provider, as the page's form posts it. */
async function click(id: string, provider: string): Promise<{ status: number; location: string }> {
  const response = await fetch(`${h.pages.url}/pay/${id}/provider`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: h.pages.url },
    body: new URLSearchParams({ provider }).toString(),
  });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location') ?? '' };
}

describe('the merchant cancels a payment link as the buyer clicks a provider', () => {
  it(`fired together ${ROUNDS} times: one order or the other, and the buyer of a canceled link is never handed over`, async () => {
    // A link at a provider that nobody paid can be canceled (ADR 0081), so the cancel always succeeds;
    // the row lock decides the order. Cancel first: the buyer lands back on the page, which says so.
    // Click first: the buyer was handed over a link live at that moment; the link then reads canceled
    // with the provider set, and money still arriving is held for review, never paid (ADR 0080).
    for (let round = 0; round < ROUNDS; round += 1) {
      const { id, provider } = await startedLink();
      const [clicked, cancel] = await Promise.all([
        click(id, provider),
        admin.cancelPaymentLink({ id }, merchant).then(
          (answer) => answer.payment?.provider ?? 'canceled',
          (error: unknown) => (error as { code?: string }).code,
        ),
      ]);
      expect(clicked.status).toBe(303);
      if (clicked.location === `/pay/${id}`) {
        // The cancel came first: nobody had gone to a provider, and the page says the link was canceled.
        expect({ round, cancel }).toEqual({ round, cancel: 'canceled' });
        const page = await (await fetch(`${h.pages.url}/pay/${id}`)).text();
        expect(page).toContain('This payment was canceled');
      } else {
        // The click came first: the cancel's answer names the provider the buyer went to.
        expect({ round, location: clicked.location, cancel }).toEqual({
          round,
          location: expect.stringMatching(/^https:\/\//),
          cancel: provider,
        });
      }
    }
  });

  it('a click after the cancel goes back to the page saying the link was canceled', async () => {
    const { id, provider } = await startedLink();
    // The buyer's page was read before the cancel: its form still offers the provider.
    await admin.cancelPaymentLink({ id }, merchant);
    expect(await click(id, provider)).toEqual({ status: 303, location: `/pay/${id}` });
  });
});
