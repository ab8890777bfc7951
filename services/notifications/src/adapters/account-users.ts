import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { newId } from '@hc/ids';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';

/** Who the account's own people are: the dashboard's users (the dashboard owns them, docs/adr/0028). */
export interface AccountUsers {
  /** Whether the address signs in to the account's dashboard (an unused invitation does not count). */
  isUser(accountId: string, email: string): Promise<boolean>;
  close(): void;
}

/** A Test receipt waits on this answer inside its event's transaction: a dashboard that is slow is a no. */
const ASK_TIMEOUT_MS = 2000;

/** Asks the dashboard's internal listener (`DashboardUsersService.IsAccountUser`). */
export function dashboardAccountUsers(address: string): AccountUsers {
  const client = createServiceClient<typeof DashboardUsersService, PublicCallContext>(DashboardUsersService, address, {
    timeoutMs: ASK_TIMEOUT_MS,
  });
  return {
    async isUser(accountId, email) {
      return (await client.isAccountUser({ accountId, email }, { requestId: newId('request') })).isUser;
    },
    close: () => client.close(),
  };
}
