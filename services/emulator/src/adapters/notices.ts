import { randomUUID } from 'node:crypto';
import type { Logger } from '@hc/logging';
import { Webhook } from 'standardwebhooks';
import type { NoticeBody } from '../domain/notice-body.ts';
import { unixSeconds } from '@hc/conversions';

/** A signed notice: Standard Webhooks headers over the exact body bytes. */
export interface SignedNotice {
  readonly id: string;
  readonly body: string;
  readonly headers: Record<string, string>;
}

export function signNotice(secret: string, body: NoticeBody, at: Date, id: string = `ntc_${randomUUID()}`): SignedNotice {
  return signed(secret, JSON.stringify(body), at, id);
}

/** The processor's signed question before it forwards a transfer (docs/adr/0081): where to. */
export function signForwardQuestion(
  secret: string,
  paymentId: string,
  txidIn: string,
  at: Date,
  id: string = `fwd_${randomUUID()}`,
): SignedNotice {
  return signed(secret, JSON.stringify({ payment_id: paymentId, txid_in: txidIn }), at, id);
}

function signed(secret: string, raw: string, at: Date, id: string): SignedNotice {
  return {
    id,
    body: raw,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(unixSeconds(at)),
      'webhook-signature': new Webhook(secret).sign(id, at, raw),
    },
  };
}

/** Sends notices to settlement's notices listener, retrying a failed delivery a few times like a processor would. */
export class NoticeSender {
  private url: string;
  private readonly secret: string;
  private readonly logger: Logger;
  private readonly pending = new Set<NodeJS.Timeout>();

  constructor(url: string, secret: string, logger: Logger) {
    this.url = url;
    this.secret = secret;
    this.logger = logger;
  }

  /** Where notices go from now on (tests learn settlement's port after the emulator started). */
  setUrl(url: string): void {
    this.url = url;
  }

  /** One delivery attempt; the HTTP status, or 0 when the listener did not answer. */
  async deliver(notice: SignedNotice): Promise<number> {
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: notice.headers,
        body: notice.body,
        signal: AbortSignal.timeout(5_000),
      });
      await response.arrayBuffer();
      return response.status;
    } catch (error) {
      this.logger.warn({ err: error, notice: notice.id }, 'notice delivery failed');
      return 0;
    }
  }

  /**
   * Delivers now, then retries in the background (same id, fresh signature) until a 2xx or 5 attempts.
   * `signedAt` backdates the first attempt's signature (a notice the processor made earlier).
   */
  async send(body: NoticeBody, delayMs = 0, id?: string, signedAt = new Date()): Promise<{ id: string; status: number | 'scheduled' }> {
    const first = signNotice(this.secret, body, signedAt, id);
    if (delayMs > 0) {
      this.schedule(() => this.attempt(body, first.id, 1), delayMs);
      return { id: first.id, status: 'scheduled' };
    }
    return { id: first.id, status: await this.attempt(body, first.id, 1, first) };
  }

  private async attempt(body: NoticeBody, id: string, n: number, signed?: SignedNotice): Promise<number> {
    const status = await this.deliver(signed ?? signNotice(this.secret, body, new Date(), id));
    if ((status < 200 || status > 299) && status !== 401 && n < 5) this.schedule(() => this.attempt(body, id, n + 1), 1_000 * n);
    return status;
  }

  private schedule(work: () => Promise<unknown>, delayMs: number): void {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      void work();
    }, delayMs);
    this.pending.add(timer);
  }

  /**
   * Asks settlement where to forward a transfer (`POST /forward-target` beside `/notices`, signed the
   * same way; docs/adr/0081): the wallet, or null when settlement named none (no wallet now, the
   * account's owner down, settlement down). A real processor would then keep the money and ask again;
   * the emulator keeps it at the deposit address and sends no notice.
   */
  async askForwardTarget(paymentId: string, txidIn: string): Promise<string | null> {
    const question = signForwardQuestion(this.secret, paymentId, txidIn, new Date());
    try {
      const response = await fetch(new URL('/forward-target', this.url), {
        method: 'POST',
        headers: question.headers,
        body: question.body,
        signal: AbortSignal.timeout(15_000),
      });
      const body = (await response.json().catch(() => null)) as { payout_wallet?: unknown; error?: unknown } | null;
      if (response.ok && typeof body?.payout_wallet === 'string') return body.payout_wallet;
      this.logger.warn({ paymentId, status: response.status, error: body?.error }, 'settlement named no wallet to forward to');
    } catch (error) {
      this.logger.warn({ err: error, paymentId }, 'settlement did not answer where to forward');
    }
    return null;
  }

  /** Drops notices not yet sent (the emulator is stopping). */
  stop(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
