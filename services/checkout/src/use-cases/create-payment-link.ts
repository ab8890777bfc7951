import { ApiError } from '@hc/errors';
import { isId, newId } from '@hc/ids';
import { UNSTARTED, type Payment, type Scope } from '../domain/payment.ts';
import { newPaymentFields, type NewPaymentRequest } from '../domain/new-payment.ts';
import { orderCustomer } from '../domain/order-customer.ts';
import { linkCustomerName, linkLifetimeMs, linkMemo } from '../domain/payment-link.ts';
import { sessionCreatedEvent } from '../domain/session-events.ts';
import type { AccountSnapshot, CreatedPayment } from './create-payment.ts';
import type { CheckoutDependencies } from './dependencies.ts';

export interface NewPaymentLinkRequest extends Omit<NewPaymentRequest, 'successUrl' | 'cancelUrl'> {
  customerName?: string | undefined;
  memo?: string | undefined;
  /** `90m`, `24h`, `7d`; absent: 7 days. */
  lifetime?: string | undefined;
}

/**
 * Creates a payment link: an open payment with source `payment_link`, expiring after its own
 * lifetime. Every field is checked before anything is written (one insert with its event). With
 * `presetId` (the gateway's idempotent creates) the link gets that id, and creating it again returns
 * the first one, even where a new create would now be refused: the rules of the payment create with a
 * preset id (createPayment, docs/adr/0070).
 */
export async function createPaymentLink(
  deps: CheckoutDependencies,
  scope: Scope,
  request: NewPaymentLinkRequest,
  account: AccountSnapshot,
  presetId?: string,
): Promise<CreatedPayment> {
  try {
    return await createNew(deps, scope, request, account, presetId);
  } catch (error) {
    if (!(error instanceof ApiError) || presetId === undefined || !isId('payment', presetId)) throw error;
    const existing = await existingLink(deps, scope, presetId);
    if (existing) return { payment: existing, created: false };
    throw error;
  }
}

async function createNew(
  deps: CheckoutDependencies,
  scope: Scope,
  request: NewPaymentLinkRequest,
  account: AccountSnapshot,
  presetId: string | undefined,
): Promise<CreatedPayment> {
  const fields = newPaymentFields(request, scope.livemode);
  const customerName = linkCustomerName(request.customerName);
  const memo = linkMemo(request.memo);
  const lifetimeMs = linkLifetimeMs(request.lifetime);
  const customer = orderCustomer(request.customerEmail, undefined);
  if (scope.livemode && !account.payoutWallet) throw new ApiError('no_payout_wallet');
  if (presetId !== undefined && !isId('payment', presetId))
    throw new ApiError('invalid_request', 'The preset id is not a payment id.', 'id');
  const createdAt = deps.now();
  const link: Payment = {
    id: presetId ?? newId('payment', createdAt.getTime()),
    accountId: scope.accountId,
    livemode: scope.livemode,
    status: 'open',
    ...fields,
    customerEmail: customer.email,
    createdAt,
    expiresAt: new Date(createdAt.getTime() + lifetimeMs),
    ...UNSTARTED,
    source: 'payment_link',
    customerName,
    memo,
    merchantName: account.merchantName ?? null,
  };
  const event = sessionCreatedEvent(link, customer.details);
  if (presetId === undefined) {
    await deps.payments.insert(link, event);
    return { payment: link, created: true };
  }
  if (await deps.payments.insertUnlessTaken(link, event)) return { payment: link, created: true };
  const existing = await existingLink(deps, scope, presetId);
  if (!existing) throw new Error(`The preset id ${presetId} is taken outside the caller's payment links`);
  return { payment: existing, created: false };
}

/** The link with this id in the caller's scope; a payment made another way is not one. */
async function existingLink(deps: CheckoutDependencies, scope: Scope, id: string): Promise<Payment | null> {
  const existing = await deps.payments.find(scope, id);
  return existing?.source === 'payment_link' ? existing : null;
}
