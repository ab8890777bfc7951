import { existsSync, writeFileSync } from 'node:fs';
import { createServiceClient } from '@hc/grpc';
import { NotificationsService } from '@hc/proto/notifications/v1';

/** Where the demo merchant's alerts go locally: the catcher takes any address. */
export const DEMO_ALERT_ADDRESS = 'alerts@demo-shop.localhost';

/**
 * On the first start only (a marker in .local/): the demo account sends Test receipts and alerts, so
 * a Test payment shows its mails in the catcher at once. Later starts leave its settings to the
 * dashboard. Returns the alert address when it set them now.
 */
export async function ensureDemoNotifications(address: string, accountId: string, markerFile: string): Promise<string | undefined> {
  if (existsSync(markerFile)) return undefined;
  const client = createServiceClient(NotificationsService, address);
  try {
    await client.updateNotificationSettings(
      { testReceiptsEnabled: true, alertAddress: DEMO_ALERT_ADDRESS },
      { accountId, livemode: false, requestId: 'req_platform_start' },
    );
  } finally {
    client.close();
  }
  writeFileSync(markerFile, `${JSON.stringify({ accountId, testReceipts: true, alertAddress: DEMO_ALERT_ADDRESS })}\n`);
  return DEMO_ALERT_ADDRESS;
}
