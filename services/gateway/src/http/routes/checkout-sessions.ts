import { Router } from 'express';
import { ApiError } from '@hc/errors';
import type { ServiceClient } from '@hc/grpc';
import type { CheckoutService } from '@hc/proto/checkout/v1';
import { callContext, callerOf } from '../locals.ts';
import { jsonObjectBody } from '../middleware/json-body.ts';
import { checkoutSessionObject } from '../presenters/checkout-session.ts';
import { validateCreateCheckoutSession } from '../validation/checkout-session-schemas.ts';

export function checkoutSessionRoutes(checkout: ServiceClient<typeof CheckoutService>): Router {
  const router = Router();

  router.post('/checkout_sessions', jsonObjectBody, async (req, res) => {
    const body = validateCreateCheckoutSession(req.body);
    const { session } = await checkout.createCheckoutSession(
      {
        amount: body.amount,
        currency: body.currency,
        description: body.description,
        customerEmail: body.customer_email ?? undefined,
        reference: body.reference ?? undefined,
        metadata: body.metadata ? { entries: body.metadata } : undefined,
        successUrl: body.success_url ?? undefined,
        cancelUrl: body.cancel_url ?? undefined,
        account: { payoutWallet: callerOf(res).account.payoutWallet ?? undefined },
      },
      callContext(res),
    );
    if (!session) throw new ApiError('internal_error');
    res.status(201).json(checkoutSessionObject(session));
  });

  router.get('/checkout_sessions/:id', async (req, res) => {
    const { session } = await checkout.getCheckoutSession({ id: req.params.id }, callContext(res));
    if (!session) throw new ApiError('internal_error');
    res.status(200).json(checkoutSessionObject(session));
  });

  return router;
}
