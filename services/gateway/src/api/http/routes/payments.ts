import type { Router } from 'express';
import { answered } from '@hc/conversions';
import type { ServiceClient } from '@hc/grpc';
import type { CheckoutService } from '@hc/proto/checkout/v1';
import { callContext } from '../locals.ts';
import { jsonObjectBody } from '../middleware/json-body.ts';
import { paymentObject } from '../presenters/payment.ts';
import { serializePaymentList } from '../presenters/serializers.ts';
import { listQuery, paymentListFilters, validateSimulatePayment } from '../validation/payment-schemas.ts';
import { answerJson, answerJsonText } from '../answer.ts';

export function paymentRoutes(router: Router, checkout: ServiceClient<typeof CheckoutService>): void {
  router.get('/payments', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const { limit, startingAfter } = listQuery(query);
    const page = await checkout.listPayments({ limit, startingAfter, ...paymentListFilters(query) }, callContext(res));
    // The page's JSON from the compiled serializer, as a read by id writes a payment (docs/adr/0097).
    answerJsonText(res, 200, serializePaymentList(page.data.map(paymentObject), page.hasMore));
  });

  router.post('/payments/:id/simulate', jsonObjectBody, async (req, res) => {
    const body = validateSimulatePayment(req.body);
    const { updated } = await checkout.simulatePayment({ id: req.params.id as string, outcome: body.outcome }, callContext(res));
    answerJson(res, 200, paymentObject(answered(updated, 'updated')));
  });
}
