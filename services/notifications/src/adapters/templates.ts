import { join } from 'node:path';
import nunjucks from 'nunjucks';
import type { MailContent, MailKind } from '../domain/mail.ts';
import type { EndpointAlertView } from '../domain/endpoint-mails.ts';
import type { InvitationView } from '../domain/invitation-mails.ts';
import type { AlertView, ReceiptView } from '../domain/payment-mails.ts';

const TEMPLATES_DIR = join(import.meta.dirname, '..', '..', 'templates');

/** Renders mails from templates/: HTML autoescaped (merchant text is untrusted), plain text as written. */
export interface MailTemplates {
  receipt(view: ReceiptView): MailContent;
  alert(kind: Exclude<MailKind, 'receipt' | 'webhook_failing' | 'invitation'>, view: AlertView): MailContent;
  endpoint(view: EndpointAlertView): MailContent;
  invitation(view: InvitationView): MailContent;
  /** To an address that already signs in to a dashboard: someone invited it; no link (docs/adr/0082). */
  invitationAddressInUse(view: InvitationView): MailContent;
}

export function mailTemplates(): MailTemplates {
  const loader = () => new nunjucks.FileSystemLoader(TEMPLATES_DIR, { noCache: false });
  const html = new nunjucks.Environment(loader(), { autoescape: true, throwOnUndefined: true });
  const text = new nunjucks.Environment(loader(), { autoescape: false, throwOnUndefined: true });
  function render(name: string, subject: string, view: ReceiptView | AlertView | EndpointAlertView | InvitationView): MailContent {
    return {
      subject,
      html: html.render(`${name}.html.njk`, { subject, view }),
      text: text.render(`${name}.txt.njk`, { subject, view }).replace(/\n{3,}/g, '\n\n'),
    };
  }
  return {
    receipt(view) {
      return render('receipt', `${view.test ? '[Test] ' : ''}Receipt from ${view.merchantName}: ${view.amount} ${view.currency}`, view);
    },
    alert(kind, view) {
      const what = kind === 'payment_held' ? 'Payment held' : 'Paid after expiry';
      return render(kind, `${view.test ? '[Test] ' : ''}${what}: ${view.amount} ${view.currency} (${view.paymentId})`, view);
    },
    endpoint(view) {
      const what = view.disabled ? 'Webhook endpoint disabled' : 'Webhook endpoint failing';
      return render('webhook_failing', `${view.test ? '[Test] ' : ''}${what}: ${view.url}`, view);
    },
    invitation(view) {
      return render('invitation', `You are invited to a merchant dashboard by ${view.invitedBy}`, view);
    },
    invitationAddressInUse(view) {
      // The subject is the invitation's: the inviter's mail log shows subjects (docs/adr/0082).
      return render('invitation_address_in_use', `You are invited to a merchant dashboard by ${view.invitedBy}`, view);
    },
  };
}
