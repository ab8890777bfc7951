import type pg from 'pg';
import type { MailTemplates } from '../adapters/templates.ts';
import type { MailStore } from '../store/mail-store.ts';
import type { SettingsStore } from '../store/settings-store.ts';

/** What the use cases need, wired by the composition root (notifications-service.ts). */
export interface NotificationsDependencies {
  readonly pool: pg.Pool;
  readonly settings: SettingsStore;
  readonly mails: MailStore;
  readonly templates: MailTemplates;
  /** The platform's public address: links in mails. */
  readonly publicBaseUrl: string;
  /** Tells the mail worker new mails are queued (it also polls). */
  wakeWorker(): void;
}
