import { SessionStatus } from '@hc/proto/checkout/v1';

/** A payment's status as the API writes it, in the spec's order. */
export const SESSION_STATUS_NAMES = ['open', 'pending', 'paid', 'held', 'failed', 'expired'] as const;
export type SessionStatusName = (typeof SESSION_STATUS_NAMES)[number];

// The one status → words table (the gateway, the dashboard and the pages each had their own).
const NAMES: Readonly<Record<SessionStatus, SessionStatusName | undefined>> = {
  [SessionStatus.UNSPECIFIED]: undefined,
  [SessionStatus.OPEN]: 'open',
  [SessionStatus.PENDING]: 'pending',
  [SessionStatus.PAID]: 'paid',
  [SessionStatus.HELD]: 'held',
  [SessionStatus.FAILED]: 'failed',
  [SessionStatus.EXPIRED]: 'expired',
};

const STATUSES: Readonly<Record<SessionStatusName, SessionStatus>> = {
  open: SessionStatus.OPEN,
  pending: SessionStatus.PENDING,
  paid: SessionStatus.PAID,
  held: SessionStatus.HELD,
  failed: SessionStatus.FAILED,
  expired: SessionStatus.EXPIRED,
};

/**
 * The API's word for a status; `undefined` for UNSPECIFIED or a number no status has (a newer
 * checkout), which each reader answers its own way (an edge refuses to guess).
 */
export function sessionStatusName(status: SessionStatus): SessionStatusName | undefined {
  return NAMES[status];
}

/** The proto status of an API word. */
export function sessionStatusOf(name: SessionStatusName): SessionStatus {
  return STATUSES[name];
}

export function isSessionStatusName(value: unknown): value is SessionStatusName {
  return typeof value === 'string' && (SESSION_STATUS_NAMES as readonly string[]).includes(value);
}
