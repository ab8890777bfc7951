import type { OutboxPosition } from '@hc/events';
import { answerEach, type ServiceHandlers } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { CheckoutService, CreateCheckoutSessionRequest, GetCheckoutSessionRequest } from '@hc/proto/checkout/v1';
import { acceptHeldPayment } from '../../use-cases/accept-held-payment.ts';
import { createCheckoutSession } from '../../use-cases/create-checkout-session.ts';
import type { Caller, CheckoutDependencies } from '../../use-cases/dependencies.ts';
import { getCheckoutSession } from '../../use-cases/get-checkout-session.ts';
import { getEventsPosition } from '../../use-cases/get-events-position.ts';
import { getPaymentTimeline } from '../../use-cases/get-payment-timeline.ts';
import { listPayments, paymentFilters } from '../../use-cases/list-payments.ts';
import { markProviderReached } from '../../use-cases/mark-provider-reached.ts';
import { simulatePayment } from '../../use-cases/simulate-payment.ts';
import { startCheckoutSession } from '../../use-cases/start-checkout-session.ts';
import { paymentMessage } from './payment-message.ts';
import { accountSnapshot, sessionMessage } from './session-message.ts';

/** A create call's fields as the use case takes them. */
function createInput(request: CreateCheckoutSessionRequest) {
  return {
    amount: request.amount,
    currency: request.currency,
    description: request.description,
    customerEmail: request.customerEmail,
    reference: request.reference,
    metadata: request.metadata?.entries,
    successUrl: request.successUrl,
    cancelUrl: request.cancelUrl,
    locale: request.locale,
    customer: request.customer,
  };
}

/** gRPC handlers: proto in, use case, proto out. No rules here. */
export function checkoutHandlers(
  deps: CheckoutDependencies,
  eventsPosition: OutboxPosition,
  logger: Logger,
): ServiceHandlers<typeof CheckoutService> {
  // Both shapes for one release (docs/adr/0102): `session`/`payment` (CheckoutSession) for readers of
  // the previous release, Payment for the new ones. The CheckoutSession half goes in the next release.
  const message = (session: Parameters<typeof sessionMessage>[0]) => sessionMessage(session, deps.publicBaseUrl);
  const payment = (session: Parameters<typeof sessionMessage>[0]) => paymentMessage(session, deps);
  const changed = (session: Parameters<typeof sessionMessage>[0]) => ({ payment: message(session), updated: payment(session) });

  const create = async (request: CreateCheckoutSessionRequest, ctx: Caller) => {
    const { session, created } = await createCheckoutSession(deps, ctx, createInput(request), accountSnapshot(request.account), request.id);
    return { session: message(session), created, payment: payment(session) };
  };

  const read = async (request: GetCheckoutSessionRequest, ctx: Caller) => {
    const session = await getCheckoutSession(deps, ctx, request.id);
    return { session: message(session), payment: payment(session) };
  };

  return {
    createCheckoutSession: create,
    getCheckoutSession: read,

    // Grouped calls (docs/adr/0064): each call of the group runs as its single call would, all at once,
    // so the store's grouped statements (ADR 0034, 0036) answer them together.
    async createCheckoutSessions(request, ctx) {
      return {
        outcomes: await answerEach(request.calls, request.requestIds, logger, 'CreateCheckoutSessions', (call, requestId) =>
          create(call, { ...ctx, requestId }),
        ),
      };
    },

    async getCheckoutSessions(request, ctx) {
      return {
        outcomes: await answerEach(request.calls, request.requestIds, logger, 'GetCheckoutSessions', (call, requestId) =>
          read(call, { ...ctx, requestId }),
        ),
      };
    },

    async startCheckoutSession(request, ctx) {
      const started = await startCheckoutSession(
        deps,
        ctx,
        request.id,
        { customerEmail: request.customerEmail, country: request.country },
        { payoutWallet: request.account?.payoutWallet ?? null, feeBps: request.account?.feeBps ?? 0 },
      );
      const country = started.country ?? undefined;
      return {
        session: { ...message(started.session), country },
        providers: started.providers,
        payment: { ...payment(started.session), country },
      };
    },

    async listPayments(request, ctx) {
      const page = await listPayments(deps, ctx, request.limit, request.startingAfter, paymentFilters(request));
      return { payments: page.payments.map(message), hasMore: page.hasMore, data: page.payments.map(payment) };
    },

    async simulatePayment(request, ctx) {
      return changed(await simulatePayment(deps, ctx, request.id, request.outcome));
    },

    async markProviderReached(request, ctx) {
      return changed(await markProviderReached(deps, ctx, request.id, request.provider));
    },

    async acceptHeldPayment(request, ctx) {
      return changed(await acceptHeldPayment(deps, ctx, request.id));
    },

    async getPaymentTimeline(request, ctx) {
      const entries = await getPaymentTimeline(deps, ctx, request.id);
      return {
        entries: entries.map((e) => ({ source: e.source, kind: e.kind, at: BigInt(e.at.getTime()), detailJson: JSON.stringify(e.detail) })),
      };
    },

    async getEventsPosition(request) {
      return { streamSequence: await getEventsPosition(eventsPosition, request.waitMs) };
    },
  };
}
