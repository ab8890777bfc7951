export * from './subjects.ts';
export { buildEvent, ContractViolation, decodeEvent, eventContract } from './decode.ts';
export type { EventContract } from './decode.ts';
export {
  PAYMENT_EVENT,
  SESSION_CREATED,
  SESSION_STARTED,
  CUSTOMER_ERASED,
  ENDPOINT_ALERT,
  VERDICT_REACHED,
  ACCOUNT_UPDATED,
  API_KEY_REVOKED,
  decodeCheckoutEvent,
} from './events.ts';
export type { CheckoutStreamEvent } from './events.ts';
export { encodeEvent, eventPayload } from './wire-json.ts';
