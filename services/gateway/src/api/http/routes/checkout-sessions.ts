import type { RequestHandler, Router } from 'express';
import { answered } from '@hc/conversions';
import type { ServiceClient } from '@hc/grpc';
import type { CheckoutService } from '@hc/proto/checkout/v1';
import { createCheckoutSession, type SessionFields } from '../../../use-cases/create-checkout-session.ts';
import type { IdempotencyDependencies, IdempotencySettings } from '../../../use-cases/create-idempotently.ts';
import { accountSnapshot, callContext } from '../locals.ts';
import { readIdempotencyKey, sentIdempotencyKey } from '../middleware/idempotency-key.ts';
import { jsonObjectBody } from '../middleware/json-body.ts';
import { checkoutSessionObject } from '../presenters/checkout-session.ts';
import { providerEntry } from '../presenters/payment.ts';
import {
  validateCreateCheckoutSession,
  type AddressBody,
  type CreateCheckoutSessionBody,
  type CustomerBody,
} from '../validation/checkout-session-schemas.ts';
import { validateStartCheckoutSession } from '../validation/payment-schemas.ts';
import { idempotencyReplays } from '../metrics.ts';
import { answerJson } from '../answer.ts';

export interface CheckoutSessionRouteDeps {
  readonly checkout: ServiceClient<typeof CheckoutService>;
  readonly idempotency: IdempotencyDependencies['idempotency'];
  readonly idempotencySettings: IdempotencySettings;
  /** Limits session starts per account (spec: about 12 a minute). */
  readonly startLimit: RequestHandler;
}

export function checkoutSessionRoutes(router: Router, deps: CheckoutSessionRouteDeps): void {
  const { checkout } = deps;

  router.post('/checkout_sessions', readIdempotencyKey, jsonObjectBody, async (req, res) => {
    const body = validateCreateCheckoutSession(req.body);
    const result = await createCheckoutSession(
      { checkout, idempotency: deps.idempotency, settings: deps.idempotencySettings },
      callContext(res),
      { fields: sentFields(body), account: accountSnapshot(res), idempotencyKey: sentIdempotencyKey(res) },
    );
    if (result.status === 200) idempotencyReplays.add(1, { create: 'checkout_session' });
    answerJson(res, result.status, checkoutSessionObject(result.object));
  });

  router.post('/checkout_sessions/:id/start', deps.startLimit, jsonObjectBody, async (req, res) => {
    const body = validateStartCheckoutSession(req.body);
    const { payment, providers } = await checkout.startCheckoutSession(
      {
        id: req.params.id as string,
        customerEmail: body.customer_email ?? undefined,
        country: body.country ?? undefined,
        account: accountSnapshot(res),
      },
      callContext(res),
    );
    const started = answered(payment, 'payment');
    answerJson(res, 200, { ...checkoutSessionObject(started), country: started.country ?? null, providers: providers.map(providerEntry) });
  });
}

/**
 * What a create asks checkout for. Also what retries are compared on: the known fields at every
 * depth, null and absent alike (the mapping drops both), so unknown fields and nulls never make an
 * idempotency conflict; the account snapshot is not part of it.
 */
function sentFields(body: CreateCheckoutSessionBody): SessionFields {
  return {
    ...sentOrderFields(body),
    successUrl: body.success_url ?? undefined,
    cancelUrl: body.cancel_url ?? undefined,
    customer: body.customer ? orderCustomer(body.customer) : undefined,
  };
}

// JSON null and a missing key mean the same: nothing sent.
const given = (value: string | null | undefined): string | undefined => value ?? undefined;

function address(body: AddressBody | null | undefined) {
  if (!body) return undefined;
  return {
    name: given(body.name),
    line1: given(body.line1),
    line2: given(body.line2),
    city: given(body.city),
    region: given(body.region),
    postalCode: given(body.postal_code),
    country: given(body.country),
  };
}

function orderCustomer(body: CustomerBody) {
  const store = body.store_account;
  return {
    email: given(body.email),
    name: given(body.name),
    phone: given(body.phone),
    shippingAddress: address(body.shipping_address),
    billingAddress: address(body.billing_address),
    storeAccount: store
      ? {
          platform: given(store.platform),
          storeId: given(store.store_id),
          storeName: given(store.store_name),
          customerId: given(store.customer_id),
        }
      : undefined,
  };
}

/** The fields a session and a payment link share, as checkout takes them (null and absent alike). */
export function sentOrderFields(
  body: Pick<CreateCheckoutSessionBody, 'amount' | 'currency' | 'description' | 'customer_email' | 'reference' | 'metadata' | 'locale'>,
): Pick<SessionFields, 'amount' | 'currency' | 'description' | 'customerEmail' | 'reference' | 'metadata' | 'locale'> {
  return {
    amount: body.amount,
    currency: body.currency,
    description: body.description,
    customerEmail: body.customer_email ?? undefined,
    reference: body.reference ?? undefined,
    metadata: body.metadata ? { entries: body.metadata } : undefined,
    locale: body.locale ?? undefined,
  };
}
