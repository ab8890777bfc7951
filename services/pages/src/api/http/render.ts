import type { Request, Response } from 'express';
import { httpStatusOf } from '@hc/errors';
import { STATE_VIEWS, pageState, type PageState } from '../../domain/page-states.ts';
import type { HostedSession } from '../../domain/hosted-session.ts';
import { buyerLocale, defaultCountry, formatAmount } from '../../domain/locale.ts';
import { successRedirect, type StartProblem } from '../../domain/outcome.ts';
import { payPaths } from '../../paths.ts';
import { allowFormTargets } from './security.ts';

export interface DetailsForm {
  readonly email: string;
  readonly country: string | null;
  readonly problem: StartProblem | null;
}

/**
 * Renders the view of the session's state (the one state → view table), with what that view needs.
 * `receiptsSent`: the account mails a receipt for this payment's mode (the notifications context
 * says); only then do the pages say "We send your receipt here" and "Receipt sent to …".
 */
export function renderSession(
  req: Request,
  res: Response,
  session: HostedSession,
  receiptsSent: boolean,
  form?: DetailsForm,
  status = 200,
): void {
  const state: PageState = pageState(session);
  const view = STATE_VIEWS[state];
  const languages = req.acceptsLanguages();
  const locale = buyerLocale(languages);
  if (state === 'choose' || state === 'waiting')
    allowFormTargets(
      res,
      session.providers.map((p) => p.handoffUrl),
    );
  res.status(status).render(view.template, {
    nonce: res.locals['cspNonce'],
    title: form?.problem ? `Error: ${view.title}` : view.title,
    view,
    state,
    session,
    paths: payPaths(session.id),
    amount: formatAmount(session.amount, session.currency, locale),
    merchantName: session.merchantName || 'The shop',
    receiptsSent,
    provider: session.providers.find((p) => p.id === session.provider) ?? null,
    redirect: state === 'paid' ? successRedirect(session) : null,
    form: form ?? { email: session.customerEmail ?? '', country: session.country ?? defaultCountry(languages), problem: null },
    locale,
  });
}

/** The page for an address that is no payment we can show: the same for unknown and malformed ids. */
export function renderNotFound(res: Response): void {
  res.status(404).render('not-found.njk', { nonce: res.locals['cspNonce'], title: 'Page not found' });
}

/**
 * A checkout (or any page) of a shop that cannot take payments now (suspended, or Live without a
 * payout wallet): the same plain words as the payment page's own state, never a 500.
 */
export function renderUnavailable(res: Response): void {
  renderProblem(
    res,
    httpStatusOf('unavailable'),
    'This shop cannot take payments right now',
    'Nothing was charged. Do not pay for it with a provider; please contact the shop.',
  );
}

export function renderProblem(res: Response, status: number, title: string, message: string, retryAfterSeconds?: number): void {
  if (retryAfterSeconds !== undefined) res.set('Retry-After', String(retryAfterSeconds));
  res.status(status).render('problem.njk', { nonce: res.locals['cspNonce'], title, message });
}
