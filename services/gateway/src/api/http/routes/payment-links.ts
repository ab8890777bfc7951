import type { Router } from 'express';
import { answered } from '@hc/conversions';
import type { ServiceClient } from '@hc/grpc';
import type { CheckoutAdminService } from '@hc/proto/checkout/v1';
import { paymentLinkObject } from '../presenters/integration.ts';
import { accountSnapshot, callContext } from '../locals.ts';
import { sentOrderFields } from './checkout-sessions.ts';
import { readIdempotencyKey, sentIdempotencyKey } from '../middleware/idempotency-key.ts';
import { jsonObjectBody, optionalJsonObjectBody } from '../middleware/json-body.ts';
import { idempotencyReplays } from '../metrics.ts';
import { createPaymentLink } from '../../../use-cases/create-payment-link.ts';
import type { IdempotencyDependencies } from '../../../use-cases/create-idempotently.ts';
import { validateCreatePaymentLink } from '../validation/integration-schemas.ts';
import { listQuery } from '../validation/payment-schemas.ts';
import { answerJson } from '../answer.ts';

/**
 * /v1/payment_links: payment links created, read and canceled with the secret key (issue 29, ADR
 * 0045), through the CheckoutAdminService calls the dashboard makes, in the key's mode. A link is a
 * payment (`pay_` id): it is also read, listed and simulated through /v1/payments.
 */
export function paymentLinkRoutes(
  router: Router,
  checkoutAdmin: ServiceClient<typeof CheckoutAdminService>,
  idempotent: IdempotencyDependencies,
): void {
  // Idempotent as every create (Idempotency-Key: the checkout session's rules, createIdempotently).
  router.post('/payment_links', readIdempotencyKey, jsonObjectBody, async (req, res) => {
    const body = validateCreatePaymentLink(req.body);
    const result = await createPaymentLink({ ...idempotent, checkoutAdmin }, callContext(res), {
      fields: {
        ...sentOrderFields(body),
        customerName: body.customer_name ?? undefined,
        memo: body.memo ?? undefined,
        lifetime: body.lifetime ?? undefined,
      },
      account: accountSnapshot(res),
      idempotencyKey: sentIdempotencyKey(res),
    });
    if (result.status === 200) idempotencyReplays.add(1, { create: 'payment_link' });
    answerJson(res, result.status, paymentLinkObject(result.object));
  });

  router.get('/payment_links', async (req, res) => {
    const { limit, startingAfter } = listQuery(req.query as Record<string, unknown>);
    const page = await checkoutAdmin.listPaymentLinks({ limit, startingAfter }, callContext(res));
    const data = page.payments.map(paymentLinkObject);
    answerJson(res, 200, { data, has_more: page.hasMore, next_cursor: page.hasMore ? (data.at(-1)?.id ?? null) : null });
  });

  router.get('/payment_links/:id', async (req, res) => {
    const { payment } = await checkoutAdmin.getPaymentLink({ id: req.params.id }, callContext(res));
    answerJson(res, 200, paymentLinkObject(answered(payment, 'payment')));
  });

  router.post('/payment_links/:id/cancel', optionalJsonObjectBody, async (req, res) => {
    const { payment } = await checkoutAdmin.cancelPaymentLink({ id: req.params.id as string }, callContext(res));
    answerJson(res, 200, paymentLinkObject(answered(payment, 'payment')));
  });
}
