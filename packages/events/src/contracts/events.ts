import { toJson, type DescMessage, type JsonObject, type MessageShape } from '@bufbuild/protobuf';
import { PaymentEventSchema, SessionCreatedSchema, SessionStartedSchema } from '@hc/proto/checkout/v1/events';
import { CustomerErasedSchema } from '@hc/proto/customers/v1/events';
import { VerdictReachedSchema } from '@hc/proto/settlement/v1/events';
import { envelopeProblem, eventContract } from './decode.ts';
import { CUSTOMER_ERASED_TYPE, PAYMENT_EVENT_TYPES, SESSION_EVENT_TYPES } from './subjects.ts';

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

/** Settlement's verdicts carry no envelope (docs/adr/0015): the scope and the verdict. */
export const VERDICT_REACHED = eventContract(VerdictReachedSchema, (m) => {
  if (m.accountId === '') return 'accountId is empty';
  if (!m.verdict || m.verdict.id === '' || m.verdict.paymentId === '') return 'verdict is missing';
  return null;
});

/** The payload a producer writes to its outbox: the message's canonical JSON (what decodeEvent reads). */
export function encodeEvent<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): JsonObject {
  return toJson(schema, message) as JsonObject;
}
