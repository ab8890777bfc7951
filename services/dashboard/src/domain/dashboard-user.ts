import type { Role } from './roles.ts';

export interface DashboardUser {
  readonly id: string;
  readonly accountId: string;
  readonly email: string;
  /** What the user may do in the account (docs/adr/0055). */
  readonly role: Role;
  readonly passwordHash: string | null;
  readonly totpSecret: string | null;
  readonly totpPendingSecret: string | null;
  readonly totpLastStep: number | null;
  readonly createdAt: Date;
}

export interface DashboardSession {
  readonly user: DashboardUser;
  readonly csrfToken: string;
  readonly secondFactorDue: boolean;
  readonly flash: string | null;
  readonly expiresAt: Date;
}

/** How long a session lives without use, and at most. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000;
/** How long a one-time set-password link works. */
export const SETUP_LINK_MS = 24 * 60 * 60 * 1000;

export type Mode = 'test' | 'live';

export function isMode(value: string): value is Mode {
  return value === 'test' || value === 'live';
}
