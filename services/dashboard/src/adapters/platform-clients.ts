import type { ServiceClient } from '@hc/grpc';
import type { CheckoutAdminService, CheckoutService } from '@hc/proto/checkout/v1';
import type { CustomersService } from '@hc/proto/customers/v1';
import type { MerchantAdminService } from '@hc/proto/accounts/v1';
import type { NotificationsService } from '@hc/proto/notifications/v1';
import type { WebhooksService } from '@hc/proto/webhooks/v1';

/**
 * The services the dashboard is a front for (docs/adr/0028): the same gRPC services the operator CLI
 * uses, called with the signed-in user's account and the URL's mode, so every isolation rule those
 * services enforce applies here too. The dashboard has no other path to the platform's data.
 */
export interface PlatformClients {
  /** The gateway's internal admin listener: the account, payout wallet and API keys. */
  readonly admin: ServiceClient<typeof MerchantAdminService>;
  /** Payments: list, read, accept a held one, timeline. */
  readonly checkout: ServiceClient<typeof CheckoutService>;
  /** Payment links and checkouts. */
  readonly checkoutAdmin: ServiceClient<typeof CheckoutAdminService>;
  readonly customers: ServiceClient<typeof CustomersService>;
  /** Webhook endpoints, events, delivery attempts, ping and resend. */
  readonly webhooks: ServiceClient<typeof WebhooksService>;
  /** Receipts and alerts: the account's settings and its mail log. */
  readonly notifications: ServiceClient<typeof NotificationsService>;
}
