export { fromUnixSeconds, unixSeconds, unixSecondsBig } from './time.ts';
export { isSessionStatusName, SESSION_STATUS_NAMES, sessionStatusName, sessionStatusOf } from './session-status.ts';
export type { SessionStatusName } from './session-status.ts';
export { EMAIL_ADDRESS_MAX_LENGTH, normalEmailAddress } from './email-address.ts';
export { answered } from './answered.ts';
