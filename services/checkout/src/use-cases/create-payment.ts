import { ApiError } from '@hc/errors';
import { isId, newId } from '@hc/ids';
import { expiryFor, UNSTARTED, type Payment, type Scope } from '../domain/payment.ts';
import { newPaymentFields, type NewPaymentRequest } from '../domain/new-payment.ts';
import { orderCustomer, type RawOrderCustomer } from '../domain/order-customer.ts';
import type { AccountStanding } from '../domain/start-rules.ts';
import { sessionCreatedEvent } from '../domain/session-events.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/** The account as the gateway read it from accounts at the time of the call (never kept for a later start, ADR 0037). */
export interface AccountSnapshot extends AccountStanding {
  payoutWallet: string | null;
  feeBps: number;
  /** The merchant's display name (create only; the hosted page shows it). */
  merchantName?: string | null | undefined;
}

export interface CreatedPayment {
  payment: Payment;
  /** False when `presetId` named a payment that already existed: a retried idempotent create. */
  created: boolean;
}

/**
 * Creates an open payment (the API's checkout session). Nothing is charged and no provider is contacted. With `presetId` (the
 * gateway's idempotent creates) the payment gets that id, and creating it again returns the first one,
 * so a retry after a crash between creating and recording the answer never makes a second payment.
 * That holds even where a new create would now be refused (a Live account's payout wallet removed
 * since): the refusal is about making a payment, and this one is made (docs/adr/0070).
 */
export async function createPayment(
  deps: CheckoutDependencies,
  scope: Scope,
  request: NewPaymentRequest & { customer?: RawOrderCustomer | undefined },
  account: AccountSnapshot,
  presetId?: string,
): Promise<CreatedPayment> {
  try {
    return await createNew(deps, scope, request, account, presetId);
  } catch (error) {
    // Only a refusal, and only for a well-formed preset id: one read, on this rare path alone.
    if (!(error instanceof ApiError) || presetId === undefined || !isId('payment', presetId)) throw error;
    const existing = await deps.payments.find(scope, presetId);
    if (existing) return { payment: existing, created: false };
    throw error;
  }
}

async function createNew(
  deps: CheckoutDependencies,
  scope: Scope,
  request: NewPaymentRequest & { customer?: RawOrderCustomer | undefined },
  account: AccountSnapshot,
  presetId: string | undefined,
): Promise<CreatedPayment> {
  const fields = newPaymentFields(request, scope.livemode);
  const customer = orderCustomer(request.customerEmail, request.customer);
  if (scope.livemode && !account.payoutWallet) throw new ApiError('no_payout_wallet');
  if (presetId !== undefined && !isId('payment', presetId))
    throw new ApiError('invalid_request', 'The preset id is not a payment id.', 'id');
  const createdAt = deps.now();
  const payment: Payment = {
    id: presetId ?? newId('payment', createdAt.getTime()),
    accountId: scope.accountId,
    livemode: scope.livemode,
    status: 'open',
    ...fields,
    customerEmail: customer.email,
    createdAt,
    expiresAt: expiryFor(createdAt),
    ...UNSTARTED,
    merchantName: account.merchantName ?? null,
  };
  const event = sessionCreatedEvent(payment, customer.details);
  if (presetId === undefined) {
    await deps.payments.insert(payment, event);
    return { payment, created: true };
  }
  // The preset id's create writes nothing if the id is taken (a retry, or two racing): no read first,
  // and the create shares its group's statement with every other (docs/adr/0062). Only then the
  // payment already made is read, in the caller's scope.
  if (await deps.payments.insertUnlessTaken(payment, event)) return { payment, created: true };
  const existing = await deps.payments.find(scope, presetId);
  if (!existing) throw new Error(`The preset id ${presetId} is taken outside the caller's account and mode`);
  return { payment: existing, created: false };
}
