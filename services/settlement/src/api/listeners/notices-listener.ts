import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@hc/logging';
import { isId } from '@hc/ids';
import { crashPoint } from '@hc/runtime';
import { listenHttp } from '@hc/web/http-listener';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { parseNotice } from '../../domain/notice.ts';
import type { SettlementDependencies } from '../../use-cases/dependencies.ts';
import { receiveNotice } from '../../use-cases/receive-notice.ts';
import { recordRejectedNotice } from '../../use-cases/record-rejected-notice.ts';
import { answerForwardTarget } from './forward-target.ts';

/** Notices are small; anything bigger is not one. */
const MAX_BODY_BYTES = 64 * 1024;

export interface NoticesListener {
  /** host:port it listens on. */
  readonly address: string;
  stop(): Promise<void>;
}

function answer(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function rawBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The payment id a refused notice claims, if its body is JSON naming one; never trusted beyond choosing a timeline. */
function claimedPaymentId(raw: Buffer): string | null {
  try {
    const body: unknown = JSON.parse(raw.toString('utf8'));
    const id = (body as { payment_id?: unknown } | null)?.payment_id;
    return typeof id === 'string' && isId('payment', id) ? id : null;
  } catch {
    return null;
  }
}

function header(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

/**
 * The processor's listener (never the merchant API). `POST /forward-target`: the processor asks where
 * to forward a transfer (./forward-target.ts, docs/adr/0081). `POST /notices`: its notices, signed
 * with the Standard Webhooks scheme (HMAC-SHA256 over id, timestamp and the raw body; docs/adr/0016).
 * Unsigned, forged and stale (timestamp more than 5 minutes off) notices are 401 and change nothing;
 * a replayed notice id is answered 200 `replayed` and changes nothing. A failure after verification
 * is a 500, so the processor redelivers (the same id) and the notice is handled then.
 */
export async function startNoticesListener(
  deps: SettlementDependencies,
  secret: string,
  address: string,
  logger: Logger,
): Promise<NoticesListener> {
  const verifier = new Webhook(secret);
  const log = logger.child({ component: 'notices' });

  async function flagRejected(raw: Buffer, noticeId: string | null, reason: string): Promise<void> {
    const paymentId = claimedPaymentId(raw);
    if (paymentId) await recordRejectedNotice(deps, paymentId, { noticeId, reason });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const forwardTarget = req.method === 'POST' && req.url === '/forward-target';
    if (!forwardTarget && (req.method !== 'POST' || req.url !== '/notices')) return answer(res, 404, { error: 'not_found' });
    const raw = await rawBody(req);
    if (raw === null) return answer(res, 413, { error: 'too_large' });
    const headers = {
      'webhook-id': header(req, 'webhook-id'),
      'webhook-timestamp': header(req, 'webhook-timestamp'),
      'webhook-signature': header(req, 'webhook-signature'),
    };
    if (forwardTarget) {
      const { status, body } = await answerForwardTarget(deps, verifier, raw, headers, log);
      return answer(res, status, body);
    }
    let body: unknown;
    try {
      // Verifies the signature over the exact bytes received and that the timestamp is within 5 minutes.
      body = verifier.verify(raw, headers);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      log.warn({ noticeId: headers['webhook-id'] || null, reason: error.message }, 'notice rejected: signature');
      await flagRejected(raw, headers['webhook-id'] || null, `signature: ${error.message}`);
      return answer(res, 401, { error: 'invalid_signature', message: error.message });
    }
    let notice;
    try {
      notice = parseNotice(headers['webhook-id'], body);
    } catch (error) {
      log.warn({ noticeId: headers['webhook-id'], reason: (error as Error).message }, 'notice rejected: malformed');
      await flagRejected(raw, headers['webhook-id'], `malformed: ${(error as Error).message}`);
      return answer(res, 400, { error: 'invalid_notice', message: (error as Error).message });
    }
    const outcome = await receiveNotice(deps, notice, body as object);
    // Crash tests: dead here, the verdict is committed with its outbox row but maybe not published, and the processor got no answer.
    crashPoint('settlement.notice.committed');
    log.info({ noticeId: notice.id, paymentId: notice.paymentId, outcome }, 'notice handled');
    answer(res, 200, { outcome });
  }

  const host = address.slice(0, address.lastIndexOf(':'));
  const listener = await listenHttp(
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        log.error({ err: error }, 'notice handling failed; the processor will redeliver');
        if (!res.headersSent) answer(res, 500, { error: 'internal_error' });
      });
    },
    // The processor redelivers what got no answer: a stop cuts the connections rather than wait.
    { host, port: Number(address.slice(address.lastIndexOf(':') + 1)), logger: log, refusals: 'api', onStop: 'drop' },
  );
  return { address: listener.address, stop: () => listener.stop() };
}
