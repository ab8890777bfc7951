import { AccountUpdatedSchema, ApiKeyRevokedSchema } from '@hc/proto/accounts/v1/events';
import { PaymentEventSchema, SessionCreatedSchema, SessionStartedSchema } from '@hc/proto/checkout/v1/events';
import { CustomerErasedSchema } from '@hc/proto/customers/v1/events';
import { VerdictReachedSchema } from '@hc/proto/settlement/v1/events';
import { EndpointAlertSchema } from '@hc/proto/webhooks/v1/events';
import type { MessageShape } from '@bufbuild/protobuf';
import { ContractViolation, decodeEvent, envelopeProblem, eventContract } from './decode.ts';
import {
  ACCOUNT_UPDATED_TYPE,
  API_KEY_REVOKED_TYPE,
  CUSTOMER_ERASED_TYPE,
  ENDPOINT_ALERT_TYPES,
  isPaymentEventType,
  PAYMENT_EVENT_TYPES,
  SESSION_EVENT_TYPES,
  type PaymentEventType,
} from './subjects.ts';

/** The contract of every NATS subject (docs/events.md): decode with decodeEvent, encode with encodeEvent. */
export const PAYMENT_EVENT = eventContract(PaymentEventSchema, (m) => {
  const problem = envelopeProblem(m, PAYMENT_EVENT_TYPES);
  if (problem !== null) return problem;
  if (!m.payment || m.payment.id === '') return 'payment is missing';
  return null;
});

export const SESSION_CREATED = eventContract(SessionCreatedSchema, (m) => {
  const problem = envelopeProblem(m, [SESSION_EVENT_TYPES[0]]);
  if (problem !== null) return problem;
  if (!m.session || m.session.id === '') return 'session is missing';
  return null;
});

export const SESSION_STARTED = eventContract(SessionStartedSchema, (m) => {
  const problem = envelopeProblem(m, [SESSION_EVENT_TYPES[1]]);
  if (problem !== null) return problem;
  if (m.sessionId === '' || m.customerEmail === '') return 'sessionId or customerEmail is empty';
  return null;
});

export const CUSTOMER_ERASED = eventContract(CustomerErasedSchema, (m) => {
  const problem = envelopeProblem(m, [CUSTOMER_ERASED_TYPE]);
  if (problem !== null) return problem;
  if (m.customerId === '') return 'customerId is empty';
  return null;
});

export const ENDPOINT_ALERT = eventContract(EndpointAlertSchema, (m) => {
  const problem = envelopeProblem(m, ENDPOINT_ALERT_TYPES);
  if (problem !== null) return problem;
  if (m.endpointId === '') return 'endpointId is empty';
  return null;
});

export const ACCOUNT_UPDATED = eventContract(AccountUpdatedSchema, (m) => {
  const problem = envelopeProblem(m, [ACCOUNT_UPDATED_TYPE]);
  if (problem !== null) return problem;
  if (m.status !== 'active' && m.status !== 'suspended') return `status "${m.status}" is not active or suspended`;
  return null;
});

export const API_KEY_REVOKED = eventContract(ApiKeyRevokedSchema, (m) => {
  const problem = envelopeProblem(m, [API_KEY_REVOKED_TYPE]);
  if (problem !== null) return problem;
  if (m.keyId === '') return 'keyId is empty';
  return null;
});

/** Settlement's verdicts carry no envelope (docs/adr/0015): the scope and the verdict. */
export const VERDICT_REACHED = eventContract(VerdictReachedSchema, (m) => {
  if (m.accountId === '') return 'accountId is empty';
  if (!m.verdict || m.verdict.id === '' || m.verdict.paymentId === '') return 'verdict is missing';
  return null;
});

export type CheckoutStreamEvent =
  | { readonly type: 'session.created'; readonly event: MessageShape<typeof SessionCreatedSchema> }
  | { readonly type: 'session.started'; readonly event: MessageShape<typeof SessionStartedSchema> }
  | { readonly type: PaymentEventType; readonly event: MessageShape<typeof PaymentEventSchema> };

/**
 * Any message of the checkout stream, by its `type`: the contract of that type, decoded (throws
 * ContractViolation), or null for a type this build does not know (a newer producer's: skipped, so a
 * new event type never blocks a consumer).
 */
export function decodeCheckoutEvent(data: unknown): CheckoutStreamEvent | null {
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  if (typeof type !== 'string') throw new ContractViolation('checkout event: the payload has no type');
  if (type === 'session.created') return { type, event: decodeEvent(SESSION_CREATED, data) };
  if (type === 'session.started') return { type, event: decodeEvent(SESSION_STARTED, data) };
  if (isPaymentEventType(type)) return { type, event: decodeEvent(PAYMENT_EVENT, data) };
  return null;
}
