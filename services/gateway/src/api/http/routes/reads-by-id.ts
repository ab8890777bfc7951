import type { ErrorRequestHandler, RequestHandler, Router } from 'express';
import { answered } from '@hc/conversions';
import type { ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { CheckoutService } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import type { AccountLimiter } from '../../../domain/account-limiter.ts';
import { authenticate, type Caller, type KeyDirectory } from '../../../use-cases/authenticate.ts';
import { locals } from '../locals.ts';
import { spendBudget } from '../middleware/rate-limit.ts';
import { checkoutSessionObject } from '../presenters/checkout-session.ts';
import { paymentObject } from '../presenters/payment.ts';
import { serializeCheckoutSession, serializePayment } from '../presenters/serializers.ts';
import { answerJsonText } from '../answer.ts';

export interface ReadByIdDeps {
  readonly merchants: KeyDirectory;
  readonly checkout: ServiceClient<typeof CheckoutService>;
  /** The account's request budget, the one the /v1 chain spends for every other route. */
  readonly requestLimit: AccountLimiter;
  readonly logger: Logger;
}

/**
 * The two reads merchants poll, `GET` (and `HEAD`) `/v1/payments/:id` and `/v1/checkout_sessions/:id`,
 * added to the /v1 router before its authentication and rate limit (docs/adr/0103): they take
 * those two steps themselves, concurrently with checkout's read (readAsCaller), so the chain must not
 * take them again. Request id, headers, access log and error answers are the app's, as for every route.
 */
export function readByIdRoutes(router: Router, deps: ReadByIdDeps): void {
  router.get(
    '/payments/:id',
    readById(deps, (payment) => serializePayment(paymentObject(payment))),
  );
  router.get(
    '/checkout_sessions/:id',
    readById(deps, (payment) => serializeCheckoutSession(checkoutSessionObject(payment))),
  );
  router.use(undecodableIdAfterKeyAndBudget(deps));
}

function readById(deps: ReadByIdDeps, body: (payment: Payment) => string): RequestHandler {
  return async (req, res) => {
    const payment = await readAsCaller(deps, req.params['id'] as string, locals(res).requestId, req.get('authorization'));
    // Written by the serializer compiled from the published schema (docs/adr/0063, 0097).
    answerJsonText(res, 200, body(payment));
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
 * The payment, read as the request's caller, within the account's budget. Authentication comes first
 * (with a cached key under the cache's lease it answers with no round trip, docs/adr/0108; ADR 0067's
 * read started on a guess while a sync ran is gone with the sync), then the budget's point and
 * checkout's read go out together (docs/adr/0065). The verdicts are taken in order: the budget (429
 * whatever the read found), then the read. A refused key sends nothing.
 */
async function readAsCaller(deps: ReadByIdDeps, id: string, requestId: string, authorization: string | undefined): Promise<Payment> {
  const caller = await authenticate(deps.merchants, authorization);
  const { reading, spending } = startReadAndSpend(deps, id, requestId, caller);
  await spending;
  const { payment } = await reading;
  return answered(payment, 'payment');
}

function startReadAndSpend(deps: ReadByIdDeps, id: string, requestId: string, caller: Caller) {
  const reading = deps.checkout.getCheckoutSession({ id }, { accountId: caller.account.id, livemode: caller.livemode, requestId });
  const spending = spendBudget(deps.requestLimit, deps.logger, caller.account.id);
  // The read may be dropped unread (the budget decided the answer): never an unhandled rejection.
  reading.catch(() => undefined);
  return { reading, spending };
}
