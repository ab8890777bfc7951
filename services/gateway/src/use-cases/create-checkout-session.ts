import { answered } from '@hc/conversions';
import type { CallContext, ServiceClient } from '@hc/grpc';
import type { CheckoutService, CreateCheckoutSessionRequest } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { createIdempotently, unlessNotFound, type CreatedObject, type IdempotencyDependencies } from './create-idempotently.ts';

type CheckoutClient = ServiceClient<typeof CheckoutService>;
// The plain-object form of the request (not the generated message class).
type CreateRequest = Exclude<Parameters<CheckoutClient['createCheckoutSession']>[0], CreateCheckoutSessionRequest>;

/** What the merchant asked for: the fields retries are compared on (no id, no account snapshot). */
export type SessionFields = Omit<CreateRequest, 'id' | 'account'>;
/** What checkout needs to know of the account, from the gateway that owns accounts. */
export type AccountSnapshot = NonNullable<CreateRequest['account']>;

export interface CreateSessionDependencies extends IdempotencyDependencies {
  readonly checkout: CheckoutClient;
}

/**
 * Creates a checkout session, at most once per (account, mode, Idempotency-Key) when a key is given
 * (createIdempotently: the one idempotency flow of every /v1 create). Checkout creates with the
 * preset id at most once and answers a retry with the session already made.
 */
export async function createCheckoutSession(
  deps: CreateSessionDependencies,
  ctx: CallContext,
  request: { fields: SessionFields; account: AccountSnapshot; idempotencyKey: string | undefined },
): Promise<CreatedObject<Payment>> {
  const { fields, account } = request;
  return createIdempotently(deps, ctx, request.idempotencyKey, {
    create: 'checkout_session',
    idKind: 'payment',
    fields,
    async make(id) {
      const { payment, created } = await deps.checkout.createCheckoutSession({ ...fields, account, id }, ctx);
      return { object: answered(payment, 'payment'), created };
    },
    find: async (id) => unlessNotFound(deps.checkout.getCheckoutSession({ id }, ctx).then(({ payment }) => answered(payment, 'payment'))),
  });
}
