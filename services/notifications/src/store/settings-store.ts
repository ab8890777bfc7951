import { DEFAULT_SETTINGS, type NotificationSettings, type SettingsChange } from '../domain/settings.ts';
import type { Sql } from './database.ts';

interface SettingsRow {
  receipts_enabled: boolean;
  test_receipts_enabled: boolean;
  alert_address: string | null;
  alert_payment_held: boolean;
  alert_webhook_failing: boolean;
  alert_late_payment: boolean;
}

const COLUMNS: Record<keyof NotificationSettings, keyof SettingsRow> = {
  receiptsEnabled: 'receipts_enabled',
  testReceiptsEnabled: 'test_receipts_enabled',
  alertAddress: 'alert_address',
  alertPaymentHeld: 'alert_payment_held',
  alertWebhookFailing: 'alert_webhook_failing',
  alertLatePayment: 'alert_late_payment',
};

function settingsOf(row: SettingsRow | undefined): NotificationSettings {
  if (!row) return DEFAULT_SETTINGS;
  return {
    receiptsEnabled: row.receipts_enabled,
    testReceiptsEnabled: row.test_receipts_enabled,
    alertAddress: row.alert_address,
    alertPaymentHeld: row.alert_payment_held,
    alertWebhookFailing: row.alert_webhook_failing,
    alertLatePayment: row.alert_late_payment,
  };
}

/** Each account's settings: one row once it changed one; the defaults before. */
export class SettingsStore {
  async get(sql: Sql, accountId: string): Promise<NotificationSettings> {
    const { rows } = await sql.query<SettingsRow>('SELECT * FROM notification_settings WHERE account_id = $1', [accountId]);
    return settingsOf(rows[0]);
  }

  /** Sets only the changed columns, in place: two changes of different fields never undo each other. */
  async update(sql: Sql, accountId: string, change: SettingsChange): Promise<NotificationSettings> {
    const keys = (Object.keys(change) as (keyof NotificationSettings)[]).filter((key) => change[key] !== undefined);
    await sql.query('INSERT INTO notification_settings (account_id) VALUES ($1) ON CONFLICT DO NOTHING', [accountId]);
    const sets = keys.map((key, i) => `${COLUMNS[key]} = $${i + 2}`);
    const { rows } = await sql.query<SettingsRow>(
      `UPDATE notification_settings SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE account_id = $1 RETURNING *`,
      [accountId, ...keys.map((key) => change[key])],
    );
    return settingsOf(rows[0]);
  }
}
