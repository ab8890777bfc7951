import { ApiError } from '@hc/errors';
import type { Role } from '../domain/roles.ts';
import type { TeamMember } from '../domain/team-member.ts';
import { createUser, type CreatedUser } from './create-user.ts';
import type { DashboardDependencies } from './dependencies.ts';

/**
 * The owner invites a person by email with a role: a user without a password and a one-time link
 * to set one (24 hours, stored hashed), which the answer page shows once. The platform sends no
 * email yet (docs/adr/0055): the owner passes the link on.
 */
export function inviteTeammate(deps: DashboardDependencies, accountId: string, input: { email: string; role: Role }): Promise<CreatedUser> {
  return createUser(deps, { accountId, email: input.email, password: null, role: input.role });
}

function refused(outcome: TeamMember | 'not_found' | 'last_owner'): TeamMember {
  if (outcome === 'not_found') throw new ApiError('not_found');
  if (outcome === 'last_owner')
    throw new ApiError('invalid_request', 'An account keeps at least one owner: make someone else owner first.', 'role');
  return outcome;
}

/** The account's users, oldest first; one of them (null: not of this account). */
export function listTeam(deps: DashboardDependencies, accountId: string): Promise<TeamMember[]> {
  return deps.team.members(accountId);
}

export function teammate(deps: DashboardDependencies, accountId: string, userId: string): Promise<TeamMember | null> {
  return deps.team.member(accountId, userId);
}

/** Another role for a user of the account; the member as it was (for the audit log's before → after). */
export async function changeRole(deps: DashboardDependencies, accountId: string, userId: string, role: Role): Promise<TeamMember> {
  return refused(await deps.team.change(accountId, userId, role));
}

/** Removes a user of the account: every session of theirs ends at once (the next request is signed out). */
export async function removeTeammate(deps: DashboardDependencies, accountId: string, userId: string): Promise<TeamMember> {
  return refused(await deps.team.change(accountId, userId, null));
}
