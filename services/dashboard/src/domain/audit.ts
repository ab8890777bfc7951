import type { Mode } from './dashboard-user.ts';

/**
 * One line of the audit log (docs/adr/0056): who did what to an account, when, from where, and for
 * settings the value before and after. Never a secret: API keys, signing secrets, passwords, codes
 * and set-password links are not values of any field.
 */
export interface AuditEntry {
  readonly id: string;
  readonly accountId: string;
  readonly at: Date;
  readonly actorKind: 'user' | 'operator';
  readonly actor: string;
  readonly clientAddress: string;
  readonly action: string;
  readonly mode: Mode | null;
  readonly target: string | null;
  /**
   * `started`: written before the action and not completed (yet): the process died in between, or
   * the action is under way. The action may or may not have happened (docs/adr/0060).
   */
  readonly outcome: AuditOutcome;
  readonly status: number | null;
  readonly before: string | null;
  readonly after: string | null;
}

export type AuditOutcome = 'started' | 'done' | 'refused';

export type NewAuditEntry = Omit<AuditEntry, 'id'>;

/** What completing a started line sets: the outcome and what only the action's end knows. */
export interface AuditCompletion {
  readonly outcome: 'done' | 'refused';
  readonly status: number | null;
  readonly target?: string | null;
  readonly before?: string | null;
  readonly after?: string | null;
  /** The account, for a CLI command that made it or found it (its line was started without one). */
  readonly accountId?: string;
  readonly at: Date;
}

/** A page of the log: newest first, narrowed by action (prefix), actor, mode and outcome. */
export interface AuditFilter {
  readonly action?: string;
  readonly actor?: string;
  readonly mode?: Mode;
  readonly outcome?: AuditOutcome;
  /** Entries older than this id (the list's cursor). */
  readonly before?: string;
}

export const AUDIT_PAGE = 50;

/** The longest value kept for a field: a setting is short; anything longer is cut, never refused. */
const MAX_VALUE = 500;

/**
 * A value as the log keeps it: cut to MAX_VALUE, and storable whatever was typed — a control
 * character (PostgreSQL cannot store NUL) or a lone surrogate becomes U+FFFD, so writing or completing
 * a line never fails on what someone sent (docs/security.md 47.4).
 */
export function clip(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  // eslint-disable-next-line no-control-regex -- control characters are what this replaces
  const storable = value.toWellFormed().replace(/[\u0000-\u001f\u007f]/g, '\uFFFD');
  return storable.length > MAX_VALUE ? `${storable.slice(0, MAX_VALUE)}…` : storable;
}

/**
 * Whether the object an address names has the shape of an id: a platform id (`pay_…`, `usr_…`, `we_…`,
 * `key_…`) or a number (a notice). Only such a value is recorded as a line's target: anything else
 * someone put in the address (`=HYPERLINK(…)`) is not written to the log (docs/security.md 47.3).
 */
export function idShaped(value: string): boolean {
  return /^(?:[a-z]{2,8}_[0-9A-Za-z]{1,64}|[0-9]{1,20})$/.test(value);
}

/**
 * Whether a line may name `value` as its object: an id (idShaped), or a user's email address as the
 * team's changes name them — letters, digits and `._%+-`, starting with a letter or digit, so never
 * a formula. Anything else someone typed is left out of the target.
 */
export function recordableTarget(value: string): boolean {
  return idShaped(value) || /^[a-z0-9][a-z0-9._%+-]{0,99}@[a-z0-9](?:[a-z0-9.-]{0,98}[a-z0-9])?$/i.test(value);
}

/** What a filter form sent, kept only where it is a filter the log knows; the rest is dropped. */
export function auditFilterOf(query: Record<string, unknown>): AuditFilter {
  const text = (name: string): string | undefined => {
    const value = query[name];
    return typeof value === 'string' && value.trim() !== '' && value.length <= 200 ? value.trim() : undefined;
  };
  const mode = text('mode');
  const outcome = text('outcome');
  const before = text('before');
  return {
    action: text('action'),
    actor: text('actor')?.toLowerCase(),
    mode: mode === 'test' || mode === 'live' ? mode : undefined,
    outcome: outcome === 'done' || outcome === 'refused' || outcome === 'started' ? outcome : undefined,
    before: before && /^[0-9]{1,18}$/.test(before) ? before : undefined,
  };
}
