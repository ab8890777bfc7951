import type { PublicCallContext, ServiceHandlers } from '@hc/grpc';
import { ApiError } from '@hc/errors';
import type { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { isMode } from '../../domain/dashboard-user.ts';
import { isRole } from '../../domain/roles.ts';
import { createUser, isAccountUser } from '../../use-cases/create-user.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { completeAudit, recordAudit } from '../../use-cases/record-audit.ts';

const text = (value: string | undefined): string | null => (value === undefined || value === '' ? null : value);

/**
 * The operator's way to make dashboard users and to write its actions into an account's audit log
 * (docs/adr/0028, 0056), and the notifications context's question whether an address is one of an
 * account's users (Test receipts, docs/notifications.md): proto in, use case, proto out. The listener
 * is internal (never behind the front router or the Ingress); the CLI checked the account.
 */
export function dashboardUsersHandlers(deps: DashboardDependencies): ServiceHandlers<typeof DashboardUsersService, PublicCallContext> {
  return {
    async createUser(request) {
      if (request.role !== undefined && !isRole(request.role))
        throw new ApiError('invalid_request', 'role must be owner, admin, developer or viewer.', 'role');
      // The user and its audit line in one transaction: neither without the other (docs/adr/0060).
      const { user, setPassword } = await createUser(deps, {
        accountId: request.accountId,
        email: request.email,
        password: request.password === '' ? null : request.password,
        role: request.role !== undefined && isRole(request.role) ? request.role : undefined,
        auditAs: { actorKind: 'operator', actor: 'operator', clientAddress: 'operator CLI' },
      });
      return {
        user: {
          id: user.id,
          accountId: user.accountId,
          email: user.email,
          created: user.createdAt.toISOString(),
          passwordSet: user.passwordHash !== null,
          twoFactor: false,
          role: user.role,
        },
        setPasswordUrl: setPassword?.url,
        setPasswordExpires: setPassword?.expiresAt.toISOString(),
      };
    },

    async isAccountUser(request) {
      return { isUser: await isAccountUser(deps, request.accountId, request.email) };
    },

    async recordAuditEntry(request) {
      // A started line may have no account yet: the CLI command makes or finds it (accounts create, keys revoke).
      if (!request.accountId && !request.started) throw new ApiError('invalid_request', 'account_id is required.', 'account_id');
      if (!/^operator\.[a-z.-]{1,80}$/.test(request.action))
        throw new ApiError('invalid_request', 'action must be operator.<group>.<command>.', 'action');
      const mode = request.mode !== undefined && isMode(request.mode) ? request.mode : null;
      const id = await recordAudit(deps, {
        accountId: request.accountId,
        actorKind: 'operator',
        actor: request.actor.slice(0, 200) || 'operator',
        clientAddress: request.clientAddress.slice(0, 200) || 'unknown',
        action: request.action,
        mode,
        target: text(request.target),
        outcome: request.started ? 'started' : request.refused ? 'refused' : 'done',
        status: null,
        before: text(request.before),
        after: text(request.after),
      });
      return { id };
    },

    async completeAuditEntry(request) {
      // account_id stays empty only for a command refused before it found an account (keys revoke of no key).
      if (!/^[0-9]{1,18}$/.test(request.id)) throw new ApiError('not_found');
      const completed = await completeAudit(deps, request.id, request.accountId, {
        outcome: request.refused ? 'refused' : 'done',
        status: null,
        ...(request.accountId ? { accountId: request.accountId } : {}),
        ...(request.target !== undefined ? { target: text(request.target) } : {}),
        ...(request.before !== undefined ? { before: text(request.before) } : {}),
        ...(request.after !== undefined ? { after: text(request.after) } : {}),
      });
      if (!completed) throw new ApiError('not_found', 'No started audit entry with that id for this account.');
      return {};
    },
  };
}
