import type { PublicCallContext, ServiceHandlers } from '@hc/grpc';
import type { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { createUser } from '../../use-cases/create-user.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';

/**
 * The operator's way to make dashboard users (docs/adr/0028): proto in, use case, proto out. The
 * listener is internal (never behind the front router or the Ingress); the CLI checked the account.
 */
export function dashboardUsersHandlers(deps: DashboardDependencies): ServiceHandlers<typeof DashboardUsersService, PublicCallContext> {
  return {
    async createUser(request) {
      const { user, setPassword } = await createUser(deps, {
        accountId: request.accountId,
        email: request.email,
        password: request.password === '' ? null : request.password,
      });
      return {
        user: {
          id: user.id,
          accountId: user.accountId,
          email: user.email,
          created: user.createdAt.toISOString(),
          passwordSet: user.passwordHash !== null,
          twoFactor: false,
        },
        setPasswordUrl: setPassword?.url,
        setPasswordExpires: setPassword?.expiresAt.toISOString(),
      };
    },
  };
}
