import { answered } from '@hc/conversions';
import type { CallContext, ServiceClient } from '@hc/grpc';
import type { CheckoutAdminService, CreatePaymentLinkRequest } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { createIdempotently, unlessNotFound, type CreatedObject, type IdempotencyDependencies } from './create-idempotently.ts';

type CheckoutAdminClient = ServiceClient<typeof CheckoutAdminService>;
type CreateRequest = Exclude<Parameters<CheckoutAdminClient['createPaymentLink']>[0], CreatePaymentLinkRequest>;

/** What the merchant asked for: the fields retries are compared on (no id, no account snapshot). */
export type PaymentLinkFields = Omit<CreateRequest, 'id' | 'account'>;

export interface CreatePaymentLinkDependencies extends IdempotencyDependencies {
  readonly checkoutAdmin: CheckoutAdminClient;
}

/**
 * Creates a payment link, at most once per (account, mode, Idempotency-Key) when a key is given, by
 * the same flow as a checkout session (createIdempotently). A link is a payment: its preset id is a
 * `pay_` id, and a replay reads it as a link (a session with that id is not one).
 */
export async function createPaymentLink(
  deps: CreatePaymentLinkDependencies,
  ctx: CallContext,
  request: { fields: PaymentLinkFields; account: NonNullable<CreateRequest['account']>; idempotencyKey: string | undefined },
): Promise<CreatedObject<Payment>> {
  const { fields, account } = request;
  return createIdempotently(deps, ctx, request.idempotencyKey, {
    create: 'payment_link',
    idKind: 'payment',
    fields,
    async make(id) {
      const { payment, created } = await deps.checkoutAdmin.createPaymentLink({ ...fields, account, id }, ctx);
      return { object: answered(payment, 'payment'), created };
    },
    find: async (id) => unlessNotFound(deps.checkoutAdmin.getPaymentLink({ id }, ctx).then(({ payment }) => answered(payment, 'payment'))),
  });
}
