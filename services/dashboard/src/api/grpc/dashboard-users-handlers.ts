import type { PublicCallContext, ServiceHandlers } from '@hc/grpc';
import { ApiError } from '@hc/errors';
import type { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { isMode } from '../../domain/dashboard-user.ts';
import { isRole } from '../../domain/roles.ts';
import { createUser } from '../../use-cases/create-user.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { recordAudit } from '../../use-cases/record-audit.ts';

const text = (value: string | undefined): string | null => (value === undefined || value === '' ? null : value);

/**
 * The operator's way to make dashboard users and to write its actions into an account's audit log
 * (docs/adr/0028, 0056): proto in, use case, proto out. The listener is internal (never behind the
 * front router or the Ingress); the CLI checked the account.
 */
export function dashboardUsersHandlers(deps: DashboardDependencies): ServiceHandlers<typeof DashboardUsersService, PublicCallContext> {
  return {
    async createUser(request) {
      if (request.role !== undefined && !isRole(request.role))
        throw new ApiError('invalid_request', 'role must be owner, admin, developer or viewer.', 'role');
      const { user, setPassword } = await createUser(deps, {
        accountId: request.accountId,
        email: request.email,
        password: request.password === '' ? null : request.password,
        role: request.role !== undefined && isRole(request.role) ? request.role : undefined,
      });
      await recordAudit(deps, {
        accountId: user.accountId,
        actorKind: 'operator',
        actor: 'operator',
        clientAddress: 'operator CLI',
        action: 'team.invite',
        mode: null,
        target: user.email,
        outcome: 'done',
        status: null,
        before: null,
        after: user.role,
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

    async recordAuditEntry(request) {
      if (!request.accountId) throw new ApiError('invalid_request', 'account_id is required.', 'account_id');
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
        outcome: request.refused ? 'refused' : 'done',
        status: null,
        before: text(request.before),
        after: text(request.after),
      });
      return { id };
    },
  };
}
