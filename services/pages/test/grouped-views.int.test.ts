// Risk covered: the buyers' page views, grouped into one call to checkout (GetHostedSessions,
// docs/batching.md), showing a buyer another buyer's payment, losing an unknown id's 404 among the
// others' answers, or failing every view while checkout is of the previous release (a rolling
// upgrade: no GetHostedSessions there), where each view must still be answered, alone.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createGrpcServer, createServiceClient, type GrpcServer, type PublicCallContext } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { HostedCheckoutService } from '@hc/proto/checkout/v1';
import { loadPagesConfig } from '../src/config.ts';
import { startPages, type RunningPages } from '../src/pages-server.ts';
import { startPagesHarness, type PagesHarness } from './pages-harness.ts';

const logger = createLogger('grouped-views-test', { level: 'silent' });
let h: PagesHarness;
beforeAll(async () => {
  h = await startPagesHarness('pages-grouped', { PAGES_VIEWS_PER_MINUTE: '10000' });
}, 60_000);
afterAll(() => h.stop());

/** Six sessions, each with a description no other one has. */
async function sixSessions(tag: string): Promise<{ id: string; description: string }[]> {
  return Promise.all(
    Array.from({ length: 6 }, async (_, index) => {
      const description = `Mug ${tag} number ${index}`;
      const payment = await h.createSession({ description });
      return { id: payment.id, description };
    }),
  );
}

/** Views of every session three times over and two unknown ids, all at once: each its own answer. */
async function viewAllAtOnce(pagesUrl: string, sessions: { id: string; description: string }[]): Promise<void> {
  const views = [...sessions, ...sessions, ...sessions].map(async ({ id, description }) => {
    const response = await fetch(`${pagesUrl}/pay/${id}`);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain(description);
    for (const other of sessions) if (other.id !== id) expect(html).not.toContain(other.description);
  });
  const unknown = ['pay_01M8UNKNOWNUNKNOWNUNKNOWN0', 'pay_01M8UNKNOWNUNKNOWNUNKNOWN1'].map(async (id) => {
    expect((await fetch(`${pagesUrl}/pay/${id}`)).status).toBe(404);
  });
  const polls = sessions.map(async ({ id }) => {
    const response = await fetch(`${pagesUrl}/pay/${id}/status`);
    expect(response.status).toBe(200);
    // A fresh session waits for the buyer's details.
    expect(await response.json()).toEqual({ state: 'details' });
  });
  await Promise.all([...views, ...unknown, ...polls]);
}

describe('page views grouped into one call to checkout', () => {
  it('answers each of 26 views at once with its own payment, an unknown id with the 404 page', async () => {
    await viewAllAtOnce(h.pages.url, await sixSessions('grouped'));
  });
});

describe('a checkout of the previous release (no GetHostedSessions)', () => {
  let previous: GrpcServer;
  let pages: RunningPages;
  const calls = { grouped: 0, single: 0 };

  beforeAll(async () => {
    // A stand-in for the previous release: the single view answered by the real checkout, the grouped
    // call failing as grpc-js's UNIMPLEMENTED reaches a client (internal_error).
    const real = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(HostedCheckoutService, h.stack.checkout.address);
    const refuse = async (): Promise<never> => {
      throw new Error('not implemented by this release');
    };
    previous = createGrpcServer(logger);
    previous.addPublic(HostedCheckoutService, {
      async getHostedSession(request, ctx) {
        calls.single += 1;
        return real.getHostedSession({ id: request.id }, ctx);
      },
      async getHostedSessions() {
        calls.grouped += 1;
        return refuse();
      },
      startHostedSession: refuse,
      reachHostedProvider: refuse,
      simulateHostedPayment: refuse,
      getHostedCheckout: refuse,
      payCheckout: refuse,
    });
    const address = await previous.listenAt('127.0.0.1:0');
    pages = await startPages(
      loadPagesConfig({ PAGES_PORT: '0', CHECKOUT_GRPC_ADDRESS: address, PAGES_VIEWS_PER_MINUTE: '10000', LOG_LEVEL: 'silent' }),
      logger,
    );
  });
  afterAll(async () => {
    await pages.stop();
    await previous.stop(100);
  });

  it('still answers every view, each alone after the grouped call is refused', async () => {
    await viewAllAtOnce(pages.url, await sixSessions('previous'));
    expect(calls.grouped).toBeGreaterThan(0);
    expect(calls.single).toBe(26);
  });
});
