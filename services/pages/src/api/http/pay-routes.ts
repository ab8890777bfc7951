import type { NextFunction, Request, Response, Router } from 'express';
import { ApiError, httpStatusOf } from '@hc/errors';
import type { PublicCallContext, ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { strictFormBody, exactRouter } from '@hc/web';
import type { HostedCheckoutService } from '@hc/proto/checkout/v1';
import { fromMessage, type HostedSession } from '../../domain/hosted-session.ts';
import { accepts, pageState, type PageAction } from '../../domain/page-states.ts';
import { startProblem } from '../../domain/outcome.ts';
import { pathTo, paths } from '../../paths.ts';
import { answeredViews } from './answered-views.ts';
import type { PageLimits } from './rate-limits.ts';
import type { ReceiptPolicy } from '../../adapters/receipt-policy.ts';
import type { BrandReader } from '../../adapters/brand-reader.ts';
import { dressWithBrand } from './brand-routes.ts';
import { renderNotFound, renderProblem, renderSession, renderUnavailable } from './render.ts';
import { sameOriginOnly } from './security.ts';

export type HostedClient = ServiceClient<typeof HostedCheckoutService, PublicCallContext>;

// Errors that are the session's state: the page shows that state's own view instead (`unavailable`: the
// shop stopped taking payments between the page and the action; the page now says so).
const STATE_ERRORS = new Set([
  'expired',
  'already_expired',
  'canceled',
  'already_paid',
  'held',
  'failed',
  'not_started',
  'live_payment',
  'unavailable',
]);

/** A form field's value, undefined when absent. */
function field(req: Request, name: string): string | undefined {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** A hosted call carries the request id only (no account: the buyer has none). */
function ctx(res: Response): PublicCallContext {
  return { requestId: res.locals['requestId'] as string };
}

/** What the start handler shares with the other routes of one router. */
interface PageTools {
  checkout: HostedClient;
  logger: Logger;
  load(id: string, res: Response): Promise<HostedSession>;
  receiptsAndBrand(res: Response, session: HostedSession): Promise<boolean>;
  backToPage(res: Response, id: string): void;
  showAnswer(res: Response, session: HostedSession): void;
}

/**
 * The start click is one call into checkout: no read before it (checkout's start enforces the states a
 * start may run in, and answers a pending payment as it is), none after it (the answer is the page's
 * next view). Only a refused start reads the session, to show the form with its problem.
 */
async function startFromPage(req: Request<{ id: string }>, res: Response, page: PageTools): Promise<void> {
  const id = req.params.id;
  const email = (field(req, 'email') ?? '').trim();
  const country = field(req, 'country') || undefined;
  // The language of the page the buyer submitted, for the receipt (checkout keeps only one it lists).
  const locale = field(req, 'locale') || undefined;
  let started: HostedSession;
  try {
    started = fromMessage((await page.checkout.startHostedSession({ id, customerEmail: email, country, locale }, ctx(res))).session!);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code === 'not_found') throw error;
    if (STATE_ERRORS.has(error.code)) return page.backToPage(res, id);
    if (error.code === 'internal_error') page.logger.error({ requestId: ctx(res).requestId }, 'start failed inside checkout');
    const session = await page.load(id, res);
    if (!accepts('start', pageState(session))) return page.backToPage(res, session.id);
    const status = httpStatusOf(error.code);
    return renderSession(
      req,
      res,
      session,
      await page.receiptsAndBrand(res, session),
      { email, country: country ?? null, problem: startProblem(error.code) },
      status,
    );
  }
  page.showAnswer(res, started);
}

/** /pay/{id}: the checkout page of one session, its actions and its live status. */
export function payRoutes(
  checkout: HostedClient,
  receipts: ReceiptPolicy,
  brands: BrandReader,
  limits: PageLimits,
  logger: Logger,
): Router {
  const router = exactRouter();
  // UTF-8 only (@hc/web): a form that is not is 400, never read with U+FFFD or raw escapes.
  const form = strictFormBody({ limit: '4kb', parameterLimit: 10 });
  const load = async (id: string, res: Response): Promise<HostedSession> =>
    fromMessage((await checkout.getHostedSession({ id }, ctx(res))).session!);
  // What the page says about receipts and how it looks, asked of their owners side by side.
  const receiptsAndBrand = async (res: Response, session: HostedSession): Promise<boolean> => {
    const [sent] = await Promise.all([receipts(session, ctx(res)), dressWithBrand(brands, res, session.accountId)]);
    return sent;
  };
  const backToPage = (res: Response, id: string) => res.redirect(303, pathTo(paths.pay.page, id));
  // An action's answer is the page's next view: handed over the redirect, not read again (issue 31).
  const answered = answeredViews();
  const showAnswer = (res: Response, session: HostedSession) => answered.handOver(res, session, pathTo(paths.pay.page, session.id));

  /** The state enforcer: an action in a state that does not accept it shows the page of that state. */
  const action =
    (name: PageAction, run: (req: Request, res: Response, session: HostedSession) => Promise<void>) =>
    async (req: Request<{ id: string }>, res: Response) => {
      const session = await load(req.params.id, res);
      if (!accepts(name, pageState(session))) return backToPage(res, session.id);
      try {
        await run(req, res, session);
      } catch (error) {
        if (error instanceof ApiError && STATE_ERRORS.has(error.code)) return backToPage(res, session.id);
        throw error;
      }
    };

  router.get(paths.pay.page, limits.views, async (req: Request<{ id: string }>, res) => {
    const id = req.params.id;
    const session = answered.take(req, res, id, pathTo(paths.pay.page, id)) ?? (await load(id, res));
    renderSession(req, res, session, await receiptsAndBrand(res, session));
  });

  router.get(paths.pay.status, limits.views, async (req: Request<{ id: string }>, res) => {
    const session = await load(req.params.id, res);
    res.json({ state: pageState(session) });
  });

  const tools: PageTools = { checkout, logger, load, receiptsAndBrand, backToPage, showAnswer };
  router.post(paths.pay.start, sameOriginOnly, limits.actions, form, (req: Request<{ id: string }>, res) => startFromPage(req, res, tools));

  router.post(
    paths.pay.provider,
    sameOriginOnly,
    limits.actions,
    form,
    action('provider', async (req, res, session) => {
      const offer = session.providers.find((p) => p.id === field(req, 'provider'));
      if (!offer) return backToPage(res, session.id);
      // Checkout judges the click under the payment's row lock: a link canceled (or a payment expired or
      // paid) since the page was read is refused there (a state error: back to the page, which says so).
      const { session: reached } = await checkout.reachHostedProvider({ id: session.id, provider: offer.id }, ctx(res));
      // Hand the buyer over only to pay a payment now waiting at a provider, never one that cannot be paid.
      if (pageState(fromMessage(reached!)) !== 'waiting') return backToPage(res, session.id);
      // Only the buyer's own click gets here; the provider opens in the tab the form targeted.
      res.redirect(303, offer.handoffUrl);
    }),
  );

  router.post(
    paths.pay.simulate,
    sameOriginOnly,
    limits.actions,
    form,
    action('simulate', async (req, res, session) => {
      if (session.livemode) return backToPage(res, session.id);
      const { session: ended } = await checkout.simulateHostedPayment({ id: session.id, outcome: field(req, 'outcome') ?? '' }, ctx(res));
      showAnswer(res, fromMessage(ended!));
    }),
  );

  return router;
}

/**
 * not_found is the 404 page; a shop that cannot take payments now says so; checkout unreachable a
 * "try again" page; anything else a logged 500.
 */
export function pageErrors(logger: Logger) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    if (error instanceof ApiError && error.code === 'not_found') return renderNotFound(res);
    if (error instanceof ApiError && error.code === 'unavailable') return renderUnavailable(res);
    if (error instanceof ApiError && error.code === 'invalid_outcome') {
      return renderProblem(res, 400, 'problem.outcome.title', 'problem.outcome.message');
    }
    if (error instanceof ApiError && (error.code === 'service_unavailable' || error.code === 'network_unavailable')) {
      return renderProblem(res, 503, 'problem.retry.title', 'problem.retry.message');
    }
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // The form body itself was refused (too large, malformed): the buyer's fault, not a 500.
      return renderProblem(res, status, 'problem.form.title', 'problem.form.message');
    }
    logger.error({ err: error, requestId: res.locals['requestId'] }, 'page failed');
    renderProblem(res, 500, 'problem.error.title', 'startProblem.other');
  };
}
