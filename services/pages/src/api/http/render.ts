import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type nunjucks from 'nunjucks';
import { httpStatusOf } from '@hc/errors';
import { STATE_VIEWS, pageState, type PageState } from '../../domain/page-states.ts';
import type { HostedSession } from '../../domain/hosted-session.ts';
import { countryName, defaultCountry, formatAmount } from '../../domain/locale.ts';
import { successRedirect, type StartProblem } from '../../domain/outcome.ts';
import { payPaths } from '../../paths.ts';
import { languageContext, messagesFor, requestLocale, sessionLocale } from './language.ts';
import { allowFormTargets } from './security.ts';
import { keptRenders } from './kept-renders.ts';

/**
 * A kept payment page as it is answered: its UTF-8 bytes, cut where the response's CSP nonce goes.
 * Encoded once when rendered, so a view writes bytes and never encodes the page's 11 kB again.
 */
type KeptPage = readonly Buffer[];
/**
 * Payment pages kept by their whole input (ADR 0101): a refresh of an unchanged payment is not rendered
 * again. About 11 kB each; a thousand buyers' pages at most (11 MB), the least recently viewed go first.
 */
const pages = keptRenders<KeptPage>(1_000);
/**
 * Stands for the response's CSP nonce in a kept page; each answer writes its own nonce there, so the
 * script tag carries that response's nonce as before. Random per process: a page's text cannot name it.
 */
const NONCE_SLOT = `nonce-slot-${randomBytes(18).toString('base64url')}`;
const HTML_TYPE = 'text/html; charset=utf-8';

/** The page's bytes with `nonce` (base64: ASCII) in each slot, in one Buffer. */
function withNonce(page: KeptPage, nonce: string): Buffer {
  const nonceBytes = Buffer.from(nonce, 'latin1');
  const parts: Buffer[] = [page[0]!];
  for (let i = 1; i < page.length; i += 1) parts.push(nonceBytes, page[i]!);
  return Buffer.concat(parts);
}

/**
 * Answers a kept page: status, type, length, end (as the gateway's answer.ts; Express's `send` would
 * copy the text into a new Buffer each time). Node leaves the body out of a HEAD answer.
 */
function answerPage(res: Response, status: number, page: KeptPage, nonce: string): void {
  const body = withNonce(page, nonce);
  res.statusCode = status;
  res.setHeader('Content-Type', HTML_TYPE);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
/** The app setting that holds the nunjucks environment (app.ts), for rendering to a string. */
export const TEMPLATES = 'page templates';

export interface DetailsForm {
  readonly email: string;
  readonly country: string | null;
  readonly problem: StartProblem | null;
}

/**
 * Renders the view of the session's state (the one state → view table), with what that view needs,
 * in the buyer's language (language.ts: their pick, the merchant's `locale`, their browser's).
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
  const locale = sessionLocale(res, session.locale);
  const messages = messagesFor(locale);
  if (state === 'choose' || state === 'waiting')
    allowFormTargets(
      res,
      session.providers.map((p) => p.handoffUrl),
    );
  const title = messages.text(view.titleKey);
  const context = {
    title: form?.problem ? messages.text('title.error', { title }) : title,
    view,
    state,
    session,
    paths: payPaths(session.id),
    amount: formatAmount(session.amount, session.currency, locale),
    merchantName: session.merchantName || messages.text('shop.fallback'),
    receiptsSent,
    provider: session.providers.find((p) => p.id === session.provider) ?? null,
    // A provider the catalogue knows speaks the buyer's language; another one keeps checkout's note.
    providers: session.providers.map((p) => ({
      ...p,
      note: messages.has(`provider.note.${p.id}`) ? messages.text(`provider.note.${p.id}`) : p.note,
    })),
    country: session.country ? countryName(session.country, locale) : '',
    redirect: state === 'paid' ? successRedirect(session) : null,
    form: form ?? { email: session.customerEmail ?? '', country: session.country ?? defaultCountry(req.acceptsLanguages()), problem: null },
    locale,
  };
  // A form with the buyer's own problem is rendered once, for them; the page view is kept.
  if (form) return res.status(status).render(view.template, { ...languageContext(res, locale), ...context });
  // Everything the template reads but the nonce and the request id (never shown), as the key.
  const { cspNonce: nonce, requestId: _requestId, ...locals } = res.locals as Record<string, unknown>;
  const page = pages.render(JSON.stringify([view.template, locals, context]), () =>
    (res.app.get(TEMPLATES) as nunjucks.Environment)
      .render(view.template, {
        ...res.app.locals,
        ...res.locals,
        ...languageContext(res, locale),
        nonce: NONCE_SLOT,
        ...context,
      })
      .split(NONCE_SLOT)
      .map((text) => Buffer.from(text)),
  );
  answerPage(res, status, page, nonce as string);
}

/** The page for an address that is no payment we can show: the same for unknown and malformed ids. */
export function renderNotFound(res: Response): void {
  const locale = requestLocale(res);
  res.status(404).render('not-found.njk', { ...languageContext(res, locale), title: messagesFor(locale).text('notFound.title') });
}

/**
 * A checkout (or any page) of a shop that cannot take payments now (suspended, or Live without a
 * payout wallet): the same plain words as the payment page's own state, never a 500.
 */
export function renderUnavailable(res: Response): void {
  renderProblem(res, httpStatusOf('unavailable'), 'state.unavailable.title', 'problem.unavailable.message');
}

/** A page that only says what went wrong: its title and message are keys in locales/*.json. */
export function renderProblem(res: Response, status: number, titleKey: string, messageKey: string, retryAfterSeconds?: number): void {
  if (retryAfterSeconds !== undefined) res.set('Retry-After', String(retryAfterSeconds));
  const messages = messagesFor(requestLocale(res));
  renderProblemText(res, status, messages.text(titleKey), messages.text(messageKey));
}

/** A problem page in words already chosen (the API reference's own, for developers, is English). */
export function renderProblemText(res: Response, status: number, title: string, message: string): void {
  res.status(status).render('problem.njk', { ...languageContext(res, requestLocale(res)), title, message });
}
