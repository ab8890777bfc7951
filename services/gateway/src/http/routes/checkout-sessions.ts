import { Router, type Response } from 'express';
import { ApiError } from '@hc/errors';
import type { ServiceClient } from '@hc/grpc';
import type { CheckoutService } from '@hc/proto/checkout/v1';
import { callContext, callerOf } from '../locals.ts';
import { jsonObjectBody } from '../middleware/json-body.ts';
import { checkoutSessionObject } from '../presenters/checkout-session.ts';
import { providerEntry } from '../presenters/payment.ts';
import { validateStartCheckoutSession } from '../validation/payment-schemas.ts';
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
        account: accountSnapshot(res),
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

  router.post('/checkout_sessions/:id/start', jsonObjectBody, async (req, res) => {
    const body = validateStartCheckoutSession(req.body);
    const { session, providers } = await checkout.startCheckoutSession(
      {
        id: req.params.id as string,
        customerEmail: body.customer_email ?? undefined,
        country: body.country ?? undefined,
        account: accountSnapshot(res),
      },
      callContext(res),
    );
    if (!session) throw new ApiError('internal_error');
    res.json({ ...checkoutSessionObject(session), country: session.country ?? null, providers: providers.map(providerEntry) });
  });

  return router;
}

/** What checkout needs to know of the account, from the gateway that owns accounts. */
function accountSnapshot(res: Response): { payoutWallet?: string; feeBps: number } {
  const { account } = callerOf(res);
  return { payoutWallet: account.payoutWallet ?? undefined, feeBps: account.feeBps };
}
