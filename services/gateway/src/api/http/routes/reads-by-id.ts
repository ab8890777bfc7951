import type { ErrorRequestHandler, RequestHandler, Router } from 'express';
import { answered } from '@hc/conversions';
import type { ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { CheckoutService } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { exactRouter } from '@hc/web';
import type { AccountLimiter } from '../../../domain/account-limiter.ts';
import { authenticate, authenticateAhead, type Caller, type KeyDirectory } from '../../../use-cases/authenticate.ts';
import { locals } from '../locals.ts';
import { spendBudget } from '../middleware/rate-limit.ts';
import { checkoutSessionObject } from '../presenters/checkout-session.ts';
import { paymentObject } from '../presenters/payment.ts';
import { serializeCheckoutSession, serializePayment } from '../presenters/serializers.ts';

export interface ReadByIdDeps {
  readonly merchants: KeyDirectory;
  readonly checkout: ServiceClient<typeof CheckoutService>;
  /** The account's request budget, the one the /v1 chain spends for every other route. */
  readonly requestLimit: AccountLimiter;
  readonly logger: Logger;
}

/**
 * The two reads merchants poll, `GET` (and `HEAD`) `/v1/payments/:id` and `/v1/checkout_sessions/:id`,
 * as Express routes mounted in /v1 before its authentication and rate limit (docs/adr/0103): they take
 * those two steps themselves, concurrently with checkout's read (readAsCaller), so the chain must not
 * take them again. Request id, headers, access log and error answers are the app's, as for every route.
 */
export function readByIdRoutes(deps: ReadByIdDeps): Router {
  const router = exactRouter();
  router.get(
    '/payments/:id',
    readById(deps, (payment) => serializePayment(paymentObject(payment))),
  );
  router.get(
    '/checkout_sessions/:id',
    readById(deps, (payment) => serializeCheckoutSession(checkoutSessionObject(payment))),
  );
  router.use(undecodableIdAfterKeyAndBudget(deps));
  return router;
}

function readById(deps: ReadByIdDeps, body: (payment: Payment) => string): RequestHandler {
  return async (req, res) => {
    const payment = await readAsCaller(deps, req.params['id'] as string, locals(res).requestId, req.get('authorization'));
    // Written by the serializer compiled from the published schema (docs/adr/0063, 0097).
    res.type('json').send(body(payment));
  };
}

/**
 * An id that is not valid percent-encoding (e.g. %E0%A4%A) fails in the router's match, before the
 * read's handler. As on every other route, the key and the budget are answered first (401, 403, 429),
 * then the failure (errors.ts: not_found).
 */
function undecodableIdAfterKeyAndBudget(deps: ReadByIdDeps): ErrorRequestHandler {
  return async (error: unknown, req, _res, next) => {
    if (error instanceof URIError) {
      const caller = await authenticate(deps.merchants, req.get('authorization'));
      await spendBudget(deps.requestLimit, deps.logger, caller.account.id);
    }
    next(error);
  };
}

/**
 * The payment, read as the request's caller, within the account's budget. Three round trips would
 * follow one another: the key cache's sync (authentication), the budget's point and checkout's read.
 * The point and the read go out together (docs/adr/0065); when the key cache already holds the key,
 * they go out with the sync too, on the cache's guess at the caller (docs/adr/0067). The verdicts are
 * taken in the same order as ever: authentication (a revocation or suspension committed before the
 * request still refuses it), then the budget (429 whatever the read found), then the read. Work done
 * on a guess that authentication then refuses is dropped, never sent.
 */
async function readAsCaller(deps: ReadByIdDeps, id: string, requestId: string, authorization: string | undefined): Promise<Payment> {
  const { guess, caller } = authenticateAhead(deps.merchants, authorization);
  const ahead = guess && startReadAndSpend(deps, id, requestId, guess);
  const verified = await caller;
  // A key belongs to one account and one mode, so a guess that authentication confirms at all names
  // the same caller; the comparison keeps that an explicit condition rather than an assumption.
  const sameCaller = ahead && guess.account.id === verified.account.id && guess.livemode === verified.livemode;
  const { reading, spending } = sameCaller ? ahead : startReadAndSpend(deps, id, requestId, verified);
  await spending;
  const { payment } = await reading;
  return answered(payment, 'payment');
}

function startReadAndSpend(deps: ReadByIdDeps, id: string, requestId: string, caller: Caller) {
  const reading = deps.checkout.getCheckoutSession({ id }, { accountId: caller.account.id, livemode: caller.livemode, requestId });
  const spending = spendBudget(deps.requestLimit, deps.logger, caller.account.id);
  // Either may be dropped unread (an earlier verdict decided the answer): never an unhandled rejection.
  reading.catch(() => undefined);
  spending.catch(() => undefined);
  return { reading, spending };
}
