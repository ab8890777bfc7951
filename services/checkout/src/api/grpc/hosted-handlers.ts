import type { PublicCallContext, ServiceHandlers } from '@hc/grpc';
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
export function hostedHandlers(deps: CheckoutDependencies): ServiceHandlers<typeof HostedCheckoutService, PublicCallContext> {
  return {
    async getHostedSession(request, ctx) {
      return { session: hostedMessage(await getHostedSession(deps, request.id, ctx.requestId)) };
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
