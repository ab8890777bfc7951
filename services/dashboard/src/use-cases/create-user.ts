import { ApiError } from '@hc/errors';
import { newId } from '@hc/ids';
import { hashPassword } from '../adapters/passwords.ts';
import { newSecret, secretHash } from '../adapters/tokens.ts';
import { normalEmail, passwordProblem } from '../domain/credentials.ts';
import type { NewAuditEntry } from '../domain/audit.ts';
import type { Role } from '../domain/roles.ts';
import { SETUP_LINK_MS, type DashboardUser } from '../domain/dashboard-user.ts';
import type { DashboardDependencies } from './dependencies.ts';

export interface CreatedUser {
  readonly user: DashboardUser;
  /** The one-time link to set the password, when none was given; shown once, stored hashed. */
  readonly setPassword: {
    readonly url: string;
    readonly expiresAt: Date;
    /** Names this link and nothing more (a prefix of its stored hash): the invitation mail's id. */
    readonly linkId: string;
  } | null;
}

/**
 * Makes a dashboard user of an account (the operator checked the account exists). With a password
 * the user can sign in at once; without, the answer carries a one-time link to set it. email_taken:
 * the account has a user with this email, or (but for an invitation) a user elsewhere signs in with it.
 */
export async function createUser(
  deps: DashboardDependencies,
  input: {
    accountId: string;
    email: string;
    password: string | null;
    role?: Role;
    /** Who asks, when the line in the audit log is to be written with the user (one transaction, docs/adr/0060). */
    auditAs?: Pick<NewAuditEntry, 'actorKind' | 'actor' | 'clientAddress'>;
    /**
     * An invitation: the user may be made while the email signs in to another account (it holds no
     * address until its password is set, docs/adr/0082). Otherwise (the operator) that is email_taken.
     */
    invitation?: boolean;
  },
): Promise<CreatedUser> {
  const email = normalEmail(input.email);
  if (!email) throw new ApiError('invalid_email', undefined, 'email');
  if (!input.invitation && (await deps.users.userByEmail(email))) throw new ApiError('email_taken', undefined, 'email');
  if (input.password !== null) {
    const problem = passwordProblem(input.password, email);
    if (problem) throw new ApiError('invalid_password', problem, 'password');
  }
  const now = deps.now();
  const user: DashboardUser = {
    id: newId('dashboardUser', now.getTime()),
    accountId: input.accountId,
    email,
    // The operator's first user of an account is its owner; the team page names the role it invites.
    role: input.role ?? 'owner',
    passwordHash: input.password === null ? null : await hashPassword(input.password),
    totpSecret: null,
    totpPendingSecret: null,
    totpLastStep: null,
    createdAt: now,
  };
  const token = input.password === null ? newSecret() : null;
  const expiresAt = new Date(now.getTime() + SETUP_LINK_MS);
  const audit: NewAuditEntry | undefined = input.auditAs && {
    ...input.auditAs,
    accountId: user.accountId,
    at: now,
    action: 'team.invite',
    mode: null,
    target: user.email,
    outcome: 'done',
    status: null,
    before: null,
    after: user.role,
  };
  const inserted = await deps.users.insertUser(user, token ? { tokenHash: secretHash(token), expiresAt } : undefined, audit);
  if (!inserted) throw new ApiError('email_taken', undefined, 'email');
  return {
    user,
    setPassword: token
      ? { url: `${deps.publicBaseUrl}/dashboard/set-password?token=${token}`, expiresAt, linkId: secretHash(token).slice(0, 22) }
      : null,
  };
}

/**
 * Whether the address signs in to the account's dashboard: a user of the account who has set a
 * password. An invitation not yet used does not count (anyone may be invited, docs/adr/0082).
 */
export async function isAccountUser(deps: DashboardDependencies, accountId: string, email: string): Promise<boolean> {
  const address = normalEmail(email);
  if (!address || !accountId) return false;
  return (await deps.users.userByEmail(address))?.accountId === accountId;
}
