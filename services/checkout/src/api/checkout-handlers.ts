import type { ServiceHandlers } from '@hc/grpc';
import type { CheckoutService } from '@hc/proto/checkout/v1';
import { createCheckoutSession } from '../use-cases/create-checkout-session.ts';
import type { CheckoutDependencies } from '../use-cases/dependencies.ts';
import { getCheckoutSession } from '../use-cases/get-checkout-session.ts';
import { sessionMessage } from './session-message.ts';

/** gRPC handlers: proto in, use case, proto out. No rules here. */
export function checkoutHandlers(deps: CheckoutDependencies): ServiceHandlers<typeof CheckoutService> {
  return {
    async createCheckoutSession(request, ctx) {
      const session = await createCheckoutSession(
        deps,
        ctx,
        {
          amount: request.amount,
          currency: request.currency,
          description: request.description,
          customerEmail: request.customerEmail,
          reference: request.reference,
          metadata: request.metadata?.entries,
          successUrl: request.successUrl,
          cancelUrl: request.cancelUrl,
        },
        { payoutWallet: request.account?.payoutWallet ?? null },
      );
      return { session: sessionMessage(session, deps.publicBaseUrl) };
    },

    async getCheckoutSession(request, ctx) {
      const session = await getCheckoutSession(deps, ctx, request.id);
      return { session: sessionMessage(session, deps.publicBaseUrl) };
    },
  };
}
