export * from './subjects.ts';
export { ContractViolation, decodeEvent, eventContract } from './decode.ts';
export type { EventContract } from './decode.ts';
export { PAYMENT_EVENT, SESSION_CREATED, SESSION_STARTED, CUSTOMER_ERASED, VERDICT_REACHED, encodeEvent } from './events.ts';
