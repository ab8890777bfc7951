import { answerEach, type PublicCallContext, type ServiceHandlers } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { HostedCheckoutService } from '@hc/proto/checkout/v1';
import type { HostedView } from '../../domain/hosted-view.ts';
import type { CheckoutDependencies } from '../../use-cases/dependencies.ts';
import { getHostedSession, reachHostedProvider, simulateHostedPayment, startHostedSession } from '../../use-cases/hosted-session.ts';
import { getPublicCheckout, payCheckout } from '../../use-cases/pay-checkout.ts';
import { checkoutMessage } from './checkout-message.ts';
import { sessionStatusOf, unixSecondsBig } from '@hc/conversions';

function hostedMessage(view: HostedView) {
  return {
    ...view,
    status: sessionStatusOf(view.status),
    customerEmail: view.customerEmail ?? undefined,
    country: view.country ?? undefined,
    expiresAt: unixSecondsBig(view.expiresAt),
    successUrl: view.successUrl ?? undefined,
    cancelUrl: view.cancelUrl ?? undefined,
    reference: view.reference ?? undefined,
    provider: view.provider ?? undefined,
    providers: [...view.providers],
    customerName: view.customerName ?? undefined,
    memo: view.memo ?? undefined,
    locale: view.locale ?? undefined,
  };
}

/** The hosted page's calls (no account context): proto in, use case, the buyer's view out. */
export function hostedHandlers(
  deps: CheckoutDependencies,
  logger: Logger,
): ServiceHandlers<typeof HostedCheckoutService, PublicCallContext> {
  const read = async (id: string, requestId: string) => ({ session: hostedMessage(await getHostedSession(deps, id, requestId)) });
  return {
    async getHostedSession(request, ctx) {
      return read(request.id, ctx.requestId);
    },
    // The pages' grouped views (docs/batching.md): each runs as its single call would, all at once, so
    // the store's grouped reads (findForBuyer) and the shared account reads answer them together.
    async getHostedSessions(request) {
      return {
        outcomes: await answerEach(request.calls, request.requestIds, logger, 'GetHostedSessions', (call, requestId) =>
          read(call.id, requestId),
        ),
      };
    },
    async startHostedSession(request, ctx) {
      const start = { customerEmail: request.customerEmail, country: request.country, pageLocale: request.locale };
      return { session: hostedMessage(await startHostedSession(deps, request.id, start, ctx.requestId)) };
    },
    async reachHostedProvider(request, ctx) {
      return { session: hostedMessage(await reachHostedProvider(deps, request.id, request.provider, ctx.requestId)) };
    },
    async simulateHostedPayment(request, ctx) {
      return { session: hostedMessage(await simulateHostedPayment(deps, request.id, request.outcome, ctx.requestId)) };
    },
    async getHostedCheckout(request, ctx) {
      const checkout = await getPublicCheckout(deps, request.id, ctx.requestId);
      return { checkout: checkoutMessage(checkout, deps.publicBaseUrl), accountId: checkout.accountId };
    },
    async payCheckout(request, ctx) {
      const payment = await payCheckout(deps, request.id, { plan: request.plan, amount: request.amount }, ctx.requestId);
      return { paymentId: payment.id };
    },
  };
}
