import type { CallContext } from '@hc/grpc';
import { ApiError } from '@hc/errors';
import { normalEmailAddress } from '@hc/conversions';
import { receiptsSent, type NotificationSettings, type SettingsChange } from '../domain/settings.ts';
import type { NotificationsDependencies } from './dependencies.ts';

export function getSettings(deps: NotificationsDependencies, ctx: CallContext): Promise<NotificationSettings> {
  return deps.settings.get(deps.sql.pool, ctx.accountId);
}

/** An alert address is checked and lowercased; empty removes it (no alerts). */
export async function updateSettings(
  deps: NotificationsDependencies,
  ctx: CallContext,
  change: Omit<SettingsChange, 'alertAddress'> & { alertAddress?: string },
): Promise<NotificationSettings> {
  const { alertAddress, ...flags } = change;
  const next: SettingsChange = { ...flags };
  if (alertAddress !== undefined) {
    if (alertAddress.trim() === '') next.alertAddress = null;
    else {
      const address = normalEmailAddress(alertAddress);
      if (!address) throw new ApiError('invalid_email', 'alert_address must be an email address, or empty for no alerts.', 'alert_address');
      next.alertAddress = address;
    }
  }
  return deps.settings.update(deps.sql.pool, ctx.accountId, next);
}

/** For the hosted pages: will a paid payment of this account and mode get a receipt? */
export async function receiptPolicy(deps: NotificationsDependencies, accountId: string, livemode: boolean): Promise<boolean> {
  return receiptsSent(await deps.settings.get(deps.sql.pool, accountId), livemode);
}
