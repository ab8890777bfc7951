import nodemailer from 'nodemailer';
import type { NotificationsConfig } from '../config.ts';
import { isPermanentSmtpFailure } from '../domain/mail.ts';

/** One mail as handed to SMTP. */
export interface OutgoingMail {
  readonly from: { readonly name: string; readonly address: string };
  readonly to: { readonly name: string | null; readonly address: string };
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** Stable across attempts (domain/mail.ts messageIdOf). */
  readonly messageId: string;
}

export type SendResult = { readonly ok: true } | { readonly ok: false; readonly permanent: boolean; readonly error: string };

export interface MailSender {
  send(mail: OutgoingMail): Promise<SendResult>;
  close(): void;
}

/**
 * Nodemailer over SMTP. `send` resolves once the server answered the message's DATA (250: accepted)
 * or refused it; the caller marks the row right after (docs/adr/0048: the window where a crash sends
 * twice is between that answer and the mark). One connection per mail: no pool to outlive a crash.
 */
export function smtpSender(
  config: Pick<NotificationsConfig, 'SMTP_HOST' | 'SMTP_PORT' | 'SMTP_SECURITY' | 'SMTP_USER' | 'SMTP_PASSWORD' | 'SMTP_TIMEOUT_MS'>,
): MailSender {
  const transport = nodemailer.createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURITY === 'tls',
    requireTLS: config.SMTP_SECURITY === 'starttls',
    ignoreTLS: config.SMTP_SECURITY === 'none',
    ...(config.SMTP_USER !== undefined && config.SMTP_PASSWORD !== undefined
      ? { auth: { user: config.SMTP_USER, pass: config.SMTP_PASSWORD } }
      : {}),
    connectionTimeout: config.SMTP_TIMEOUT_MS,
    greetingTimeout: config.SMTP_TIMEOUT_MS,
    socketTimeout: config.SMTP_TIMEOUT_MS,
  });
  return {
    async send(mail) {
      try {
        await transport.sendMail({
          from: { name: mail.from.name, address: mail.from.address },
          to: mail.to.name ? { name: mail.to.name, address: mail.to.address } : mail.to.address,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          // No tracking, no images: a receipt is read, not measured.
          disableFileAccess: true,
          disableUrlAccess: true,
        });
        return { ok: true };
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        const message = error instanceof Error ? error.message : String(error);
        // Servers quote the refused recipient ("550 <ann@example.com>: no such user"): the error goes to the
        // mail log and the service log, which keep no buyer's address (docs/personal-data.md).
        return { ok: false, permanent: isPermanentSmtpFailure(code), error: withoutAddresses(message).slice(0, 500) };
      }
    },
    close() {
      transport.close();
    },
  };
}

/** Every email address in a server's answer replaced, so the error can be logged and kept. */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '<address>');
}
