import { existsSync } from 'node:fs';
import { createServiceClient } from '@hc/grpc';
import { NotificationsService } from '@hc/proto/notifications/v1';
import type { LocalState } from './local-state.ts';

/** Where the demo merchant's alerts go locally: the catcher takes any address. */
export const DEMO_ALERT_ADDRESS = 'alerts@demo-shop.localhost';
const MARKER_NAME = 'demo-notifications';

/**
 * On the first start only (a row in the local state database under `scope`, the notifications
 * database's, docs/adr/0083; or, from before, a marker file in the clone's .local/): the demo account
 * sends Test receipts and alerts, so a Test payment shows its mails in the catcher at once. Later
 * starts, from any clone, leave its settings to the dashboard. Returns the alert address when it set
 * them now.
 */
export async function ensureDemoNotifications(
  address: string,
  accountId: string,
  state: { store: LocalState; scope: string; cloneMarkerFile: string },
): Promise<string | undefined> {
  if ((await state.store.get(state.scope, MARKER_NAME)) !== undefined) return undefined;
  if (existsSync(state.cloneMarkerFile)) {
    // Set up by this clone before ADR 0083: remembered for every clone from now on.
    await state.store.put(state.scope, MARKER_NAME, JSON.stringify({ accountId, fromClone: true }));
    return undefined;
  }
  const client = createServiceClient(NotificationsService, address);
  try {
    await client.updateNotificationSettings(
      { testReceiptsEnabled: true, alertAddress: DEMO_ALERT_ADDRESS },
      { accountId, livemode: false, requestId: 'req_platform_start' },
    );
  } finally {
    client.close();
  }
  await state.store.put(state.scope, MARKER_NAME, JSON.stringify({ accountId, testReceipts: true, alertAddress: DEMO_ALERT_ADDRESS }));
  return DEMO_ALERT_ADDRESS;
}
