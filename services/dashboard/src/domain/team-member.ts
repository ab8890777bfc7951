import type { Role } from './roles.ts';

/** A user of an account as the team page shows it (docs/adr/0055). */
export interface TeamMember {
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  readonly createdAt: Date;
  readonly passwordSet: boolean;
  /** Not signed up yet, and a set-password link still works: the invitation is open (else it has expired). */
  readonly invitationOpen: boolean;
  readonly twoFactor: boolean;
}
