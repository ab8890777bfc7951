import type { IncomingMessage, ServerResponse } from 'node:http';
import { context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import { ApiError } from '@hc/errors';
import type { ServiceClient } from '@hc/grpc';
import { newId } from '@hc/ids';
import type { Logger } from '@hc/logging';
import { paymentOf } from '@hc/conversions';
import type { CheckoutService } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { accessLogger } from '@hc/web';
import type { AccountLimiter } from '../../domain/account-limiter.ts';
import { authenticateAhead, type Caller, type KeyDirectory } from '../../use-cases/authenticate.ts';
import { failureAnswer } from './middleware/errors.ts';
import { spendBudget } from './middleware/rate-limit.ts';
import { SECURITY_HEADERS } from './middleware/response-headers.ts';
import { checkoutSessionObject } from './presenters/checkout-session.ts';
import { paymentObject } from './presenters/payment.ts';
import { serializeCheckoutSession, serializePayment } from './presenters/serializers.ts';

export interface HotReadDeps {
  readonly merchants: KeyDirectory;
  readonly checkout: ServiceClient<typeof CheckoutService>;
  readonly requestLimit: AccountLimiter;
  readonly logger: Logger;
}

interface HotRoute {
  readonly prefix: string;
  /** As Express's router names it, for the `http.route` of the request's metrics and span. */
  readonly route: string;
  readonly body: (payment: Payment) => string;
}

const ROUTES: readonly HotRoute[] = [
  { prefix: '/v1/payments/', route: '/v1/payments/:id', body: (s) => serializePayment(paymentObject(s)) },
  { prefix: '/v1/checkout_sessions/', route: '/v1/checkout_sessions/:id', body: (s) => serializeCheckoutSession(checkoutSessionObject(s)) },
];

// Every answer's fixed headers, as app.ts's middleware sets them, flattened once for writeHead.
const FIXED_HEADERS: readonly string[] = ['Cache-Control', 'no-store', ...SECURITY_HEADERS.flat()];

/**
 * The two reads merchants poll, answered without Express (docs/adr/0063): the same steps as the
 * middleware chain of app.ts in the same order — request id, no-store and security headers, access
 * log, API key (through the key cache, so a revocation is refused on the next request), the
 * account's rate limit and checkout's read (sent together, the limit's verdict taken first; docs/adr/0065;
 * started on the key cache's guess while its sync runs, authentication's verdict first; docs/adr/0067)
 * — and the same error answers (failureAnswer). Only the plain
 * form is taken: `GET /v1/<payments|checkout_sessions>/<id>` with no query, no percent-escape and no
 * further segment; anything else, HEAD included, goes to Express as before. Returns whether it
 * answered the request.
 */
export function hotReads(deps: HotReadDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const logAccess = accessLogger(deps.logger);
  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const route = url.startsWith(ROUTES[0]!.prefix) ? ROUTES[0]! : url.startsWith(ROUTES[1]!.prefix) ? ROUTES[1]! : undefined;
    if (!route) return false;
    const id = url.slice(route.prefix.length);
    if (id === '' || /[/?%#]/.test(id)) return false;
    const rpc = getRPCMetadata(context.active());
    if (rpc?.type === RPCType.HTTP) rpc.route = route.route;
    const requestId = newId('request');
    logAccess(res, 'GET', url, () => requestId);
    answer(deps, route, id, requestId, req, res).catch((error: unknown) =>
      deps.logger.error({ err: error, requestId }, 'hot read failed to answer'),
    );
    return true;
  };
}

async function answer(deps: HotReadDeps, route: HotRoute, id: string, requestId: string, req: IncomingMessage, res: ServerResponse) {
  let status = 200;
  let body: string;
  let retryAfter: string | undefined;
  try {
    body = route.body(await readAsCaller(deps, id, requestId, req.headers.authorization));
  } catch (error) {
    const failure = failureAnswer(deps.logger, error, { requestId, method: 'GET', path: req.url ?? '' });
    status = failure.status;
    body = JSON.stringify(failure.body);
    retryAfter = failure.retryAfter;
  }
  const headers = ['X-Request-Id', requestId, ...FIXED_HEADERS];
  if (retryAfter) headers.push('Retry-After', retryAfter);
  headers.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(body)));
  res.writeHead(status, headers);
  res.end(body);
}

/**
 * The session, read as the request's caller, within the account's budget. Three round trips would
 * follow one another: the key cache's sync (authentication), the budget's point and checkout's read.
 * The point and the read go out together (docs/adr/0065); when the key cache already holds the key,
 * they go out with the sync too, on the cache's guess at the caller (docs/adr/0067). The verdicts are
 * taken in the same order as ever: authentication (a revocation or suspension committed before the
 * request still refuses it), then the budget (429 whatever the read found), then the read. Work done
 * on a guess that authentication then refuses is dropped, never sent.
 */
async function readAsCaller(deps: HotReadDeps, id: string, requestId: string, authorization: string | undefined): Promise<Payment> {
  const { guess, caller } = authenticateAhead(deps.merchants, authorization);
  const ahead = guess && startReadAndSpend(deps, id, requestId, guess);
  const verified = await caller;
  // A key belongs to one account and one mode, so a guess that authentication confirms at all names
  // the same caller; the comparison keeps that an explicit condition rather than an assumption.
  const sameCaller = ahead && guess.account.id === verified.account.id && guess.livemode === verified.livemode;
  const { reading, spending } = sameCaller ? ahead : startReadAndSpend(deps, id, requestId, verified);
  await spending;
  const { payment, session } = await reading;
  if (!payment && !session) throw new ApiError('internal_error');
  return paymentOf(payment, session);
}

function startReadAndSpend(deps: HotReadDeps, id: string, requestId: string, caller: Caller) {
  const reading = deps.checkout.getCheckoutSession({ id }, { accountId: caller.account.id, livemode: caller.livemode, requestId });
  const spending = spendBudget(deps.requestLimit, deps.logger, caller.account.id);
  // Either may be dropped unread (an earlier verdict decided the answer): never an unhandled rejection.
  reading.catch(() => undefined);
  spending.catch(() => undefined);
  return { reading, spending };
}
