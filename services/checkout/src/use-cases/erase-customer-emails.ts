import type { Scope } from '../domain/payment.ts';
import type { CheckoutDependencies } from './dependencies.ts';

/** What the customers context's erasure names: the buyer's payments, and per payment the email revision erased. */
export interface CustomerErasure extends Scope {
  readonly paymentIds: readonly string[];
  /** Per payment, the email revision the customers context erased (absent: erase whatever is there). */
  readonly emailRevisions?: Readonly<Record<string, number>> | undefined;
}

/**
 * Removes the erased buyer's email from their payments of this scope, once per erasure message
 * (`consumer` and `messageId` make a redelivery a no-op). Returns how many payments lost an email.
 */
export function eraseCustomerEmails(
  deps: Pick<CheckoutDependencies, 'payments'>,
  erasure: CustomerErasure,
  consumer: string,
  messageId: string,
): Promise<number> {
  const scope: Scope = { accountId: erasure.accountId, livemode: erasure.livemode };
  return deps.payments.eraseCustomerEmails(scope, erasure.paymentIds, erasure.emailRevisions ?? {}, consumer, messageId);
}
