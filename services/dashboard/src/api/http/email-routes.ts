import type { Router } from 'express';
import type { NotificationSettings } from '@hc/proto/notifications/v1';
import { formatTime } from '../../domain/format.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { auditDetail } from './audit-trail.ts';
import { redirectWithFlash } from './auth-routes.ts';
import { formRefusal, formValues } from './forms.ts';
import { modeOf } from './mode.ts';
import { modePath } from './paths.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { renderPage } from './render.ts';
import { callContext } from './session.ts';
import { signedInRouter } from './routers.ts';

/** The switches of the emails form: the form field, the settings field, and what it turns on. */
export const EMAIL_SWITCHES = [
  { field: 'receipts_enabled', key: 'receiptsEnabled', label: 'Send buyers a receipt when a Live payment is paid' },
  { field: 'test_receipts_enabled', key: 'testReceiptsEnabled', label: 'Send receipts for Test payments too' },
  { field: 'alert_payment_held', key: 'alertPaymentHeld', label: 'Alert me when a payment is held' },
  { field: 'alert_webhook_failing', key: 'alertWebhookFailing', label: 'Alert me when a webhook endpoint keeps failing or is disabled' },
  { field: 'alert_late_payment', key: 'alertLatePayment', label: 'Alert me when a Live payment is paid after it expired' },
] as const;

/**
 * Settings as the audit log shows them before → after (`notifications.change`): each switch by its form
 * field, on or off, and the alert address (docs/security.md 47.9). Null when there were none yet.
 */
export function emailSettingsText(settings: Omit<NotificationSettings, '$typeName' | '$unknown'> | undefined): string | null {
  if (!settings) return null;
  const switches = EMAIL_SWITCHES.map((s) => `${s.field} ${settings[s.key] ? 'on' : 'off'}`);
  return [...switches, `alert_address ${settings.alertAddress || '(none)'}`].join(', ');
}

const KIND_WORDS: Record<string, string> = {
  receipt: 'Receipt',
  payment_held: 'Held alert',
  late_payment: 'Late payment alert',
  webhook_failing: 'Webhook alert',
  invitation: 'Invitation',
};

/**
 * /dashboard/{mode}/settings/emails: the account's receipt and alert switches, its alert address, and
 * the log of mails in this mode (to whom, sent or failed). Everything is the notifications context's,
 * over gRPC with the user's account (docs/notifications.md).
 */
export function emailRoutes(platform: PlatformClients, deps: DashboardDependencies): Router {
  const router = signedInRouter('/dashboard/:mode');

  async function renderEmails(
    res: Parameters<Parameters<Router['get']>[1]>[1],
    refused: { problem: string; address: string } | null,
    status = 200,
  ) {
    const ctx = callContext(res, modeOf(res));
    const [{ settings }, log] = await Promise.all([
      platform.notifications.getNotificationSettings({}, ctx),
      platform.notifications.listMails({ limit: 50 }, ctx),
    ]);
    renderPage(
      res,
      'settings-emails.njk',
      {
        title: refused ? 'Error: Emails' : 'Emails',
        area: 'settings',
        switches: EMAIL_SWITCHES.map((s) => ({ ...s, on: settings?.[s.key] ?? false })),
        alertAddress: refused?.address ?? settings?.alertAddress ?? '',
        problem: refused?.problem ?? null,
        mails: log.mails.map((m) => ({
          id: m.id,
          kind: KIND_WORDS[m.kind] ?? m.kind,
          status: m.status,
          recipient: m.recipient || '(erased)',
          subject: m.subject,
          paymentId: m.paymentId ?? null,
          created: formatTime(m.created),
          lastError: m.lastError ?? null,
        })),
      },
      status,
    );
  }

  router.get('/settings/emails', async (_req, res) => {
    await renderEmails(res, null);
  });

  router.post('/settings/emails', async (req, res) => {
    const mode = modeOf(res);
    const form = formValues(req, ['alert_address', ...EMAIL_SWITCHES.map((s) => s.field)]);
    // A checkbox left unticked is not posted: every switch is set on each save, on or off.
    const switches = Object.fromEntries(EMAIL_SWITCHES.map((s) => [s.key, form[s.field] === 'on']));
    const asked = { ...(switches as Record<(typeof EMAIL_SWITCHES)[number]['key'], boolean>), alertAddress: form['alert_address']!.trim() };
    const { settings: before } = await platform.notifications.getNotificationSettings({}, callContext(res, mode));
    // Before → after in the audit log; a refused change shows what was asked.
    auditDetail(res, { before: emailSettingsText(before), after: emailSettingsText(asked) });
    try {
      const { settings: after } = await platform.notifications.updateNotificationSettings(asked, callContext(res, mode));
      auditDetail(res, { after: emailSettingsText(after ?? asked) });
    } catch (error) {
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return renderEmails(res, { problem: refusal.message, address: form['alert_address']! }, refusal.httpStatus);
    }
    await redirectWithFlash(deps, res, modePath(mode, 'settings', 'emails'), 'Email settings saved.');
  });

  return router;
}
