import { join } from 'node:path';
import nunjucks from 'nunjucks';
import type { MailContent, MailKind } from '../domain/mail.ts';
import type { EndpointAlertView } from '../domain/endpoint-mails.ts';
import type { InvitationView } from '../domain/invitation-mails.ts';
import type { AlertView, ReceiptView } from '../domain/payment-mails.ts';
import { catalogueDirectory, textDirection, type Locale, type MessageValues } from '@hc/i18n';

const TEMPLATES_DIR = join(import.meta.dirname, '..', '..', 'templates');
/** The buyer's mails' words (the receipt), one file a locale (docs/adr/0089); merchant alerts are English. */
export const LOCALES_DIR = join(import.meta.dirname, '..', '..', 'locales');
const messagesFor = catalogueDirectory(LOCALES_DIR);

/** Renders mails from templates/: HTML autoescaped (merchant text is untrusted), plain text as written. */
export interface MailTemplates {
  /** In the payment's locale: words, amount and date; `lang` and `dir` on the HTML. */
  receipt(view: ReceiptView): MailContent;
  /** "The shop" in the buyer's language: a receipt's sender when the session has no merchant name. */
  shopName(locale: Locale): string;
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
  function render(
    name: string,
    subject: string,
    view: ReceiptView | AlertView | EndpointAlertView | InvitationView,
    // Merchant alerts and invitations are English (their readers chose the dashboard's language).
    language: Record<string, unknown> = { lang: 'en', dir: 'ltr', testBanner: 'Test mode: no real money moved.' },
  ): MailContent {
    const context = { subject, view, ...language };
    return {
      subject,
      html: html.render(`${name}.html.njk`, context),
      text: text.render(`${name}.txt.njk`, context).replace(/\n{3,}/g, '\n\n'),
    };
  }
  return {
    receipt(view) {
      const messages = messagesFor(view.locale);
      const t = (key: string, values?: MessageValues) => messages.text(key, values);
      const merchant = view.merchantName ?? t('shop.fallback');
      const subject = t('receipt.subject', { merchant, amount: view.amount });
      const language = { lang: view.locale, dir: textDirection(view.locale), t, merchant, testBanner: t('receipt.testMode') };
      return render('receipt', view.test ? `${t('receipt.testPrefix')} ${subject}` : subject, view, language);
    },
    shopName(locale) {
      return messagesFor(locale).text('shop.fallback');
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
