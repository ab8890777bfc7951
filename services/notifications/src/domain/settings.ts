/** An account's mail settings; an account that never changed one has the defaults. */
export interface NotificationSettings {
  readonly receiptsEnabled: boolean;
  readonly testReceiptsEnabled: boolean;
  /** Where merchant alerts go; null: no alerts. */
  readonly alertAddress: string | null;
  readonly alertPaymentHeld: boolean;
  readonly alertWebhookFailing: boolean;
  readonly alertLatePayment: boolean;
}

/** Receipts on for Live, off for Test (a Test payment's buyer is usually the merchant), no alert address. */
export const DEFAULT_SETTINGS: NotificationSettings = {
  receiptsEnabled: true,
  testReceiptsEnabled: false,
  alertAddress: null,
  alertPaymentHeld: true,
  alertWebhookFailing: true,
  alertLatePayment: true,
};

export type SettingsChange = { -readonly [K in keyof NotificationSettings]?: NotificationSettings[K] };

/**
 * Whether a paid payment of this mode gets a receipt: the one rule the hosted page's words and the
 * consumer both follow, so the page never promises what is not sent.
 */
export function receiptsSent(settings: NotificationSettings, livemode: boolean): boolean {
  return settings.receiptsEnabled && (livemode || settings.testReceiptsEnabled);
}

export type AlertKind = 'payment_held' | 'late_payment' | 'webhook_failing';

/** The address an alert of this kind goes to, or null when the account does not want it. */
export function alertRecipient(settings: NotificationSettings, kind: AlertKind): string | null {
  const wanted = {
    payment_held: settings.alertPaymentHeld,
    late_payment: settings.alertLatePayment,
    webhook_failing: settings.alertWebhookFailing,
  }[kind];
  return wanted ? settings.alertAddress : null;
}
