import type { SecretBox } from '@hc/secrets';
import type { AccountBrands } from '../adapters/account-brands.ts';
import type { AccountUsers } from '../adapters/account-users.ts';
import type { MailTemplates } from '../adapters/templates.ts';
import type { NotificationsSql } from '../store/database.ts';
import type { MailStore } from '../store/mail-store.ts';
import type { SettingsStore } from '../store/settings-store.ts';

/** What the use cases need, wired by the composition root (notifications-service.ts). */
export interface NotificationsDependencies {
  readonly sql: NotificationsSql;
  readonly settings: SettingsStore;
  readonly mails: MailStore;
  readonly templates: MailTemplates;
  /** The shop's logo and accent for its receipts, asked of accounts. */
  readonly brands: AccountBrands;
  /** The platform's public address: links in mails. */
  readonly publicBaseUrl: string;
  /** Seals invitations' links at rest (null: no keys configured; invitations are refused). */
  readonly links: SecretBox | null;
  /** Who may get a Test receipt (docs/notifications.md, "Test receipts"). */
  readonly testReceipts: {
    /** The account's own users, asked of the dashboard. */
    readonly accountUsers: AccountUsers;
    readonly perAccountHour: number;
    /** Local development and tests only: any address (the cap still applies). */
    readonly toAnyAddress: boolean;
  };
  /** Tells the mail worker new mails are queued (it also polls). */
  wakeWorker(): void;
}
