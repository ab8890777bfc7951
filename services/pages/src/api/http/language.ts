import { join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import nunjucks from 'nunjucks';
import { parse as parseCookies } from 'cookie';
import {
  catalogueDirectory,
  DEFAULT_LOCALE,
  localeNames,
  negotiateLocale,
  supportedLocale,
  textDirection,
  type Locale,
  type MessageValues,
  type Messages,
} from '@hc/i18n';

/** The pages' catalogues (docs/adr/0089); a page formats only with its buyer's one. */
export const LOCALES_DIR = join(import.meta.dirname, '..', '..', '..', 'locales');
export const messagesFor = catalogueDirectory(LOCALES_DIR);

/** The buyer's own choice from the language picker, kept for a year on every page of this host. */
const COOKIE = 'hc_lang';
const COOKIE_MAX_AGE_MS = 365 * 24 * 3600 * 1000;
const NAMES = localeNames();

/**
 * The language picker (`?lang=de` on any page, plain links: no script, no form) and the cookie that
 * keeps the choice; then `res.locals.locale` is the buyer's choice or, without one, the best match
 * of Accept-Language. A session's own `locale` (the merchant's, on create) comes between the two:
 * `sessionLocale`.
 */
export function buyerLanguage(req: Request, res: Response, next: NextFunction): void {
  const asked = supportedLocale(req.query['lang']);
  if (asked) res.cookie(COOKIE, asked, { path: '/', httpOnly: true, sameSite: 'lax', secure: req.secure, maxAge: COOKIE_MAX_AGE_MS });
  const kept = asked ?? supportedLocale(req.headers.cookie ? parseCookies(req.headers.cookie)[COOKIE] : undefined);
  res.locals['chosenLocale'] = kept;
  res.locals['locale'] = kept ?? negotiateLocale(req.acceptsLanguages());
  next();
}

/** The buyer's choice first, then the merchant's `locale` for this payment, then the browser's. */
export function sessionLocale(res: Response, merchantLocale: string | null): Locale {
  const chosen = res.locals['chosenLocale'] as Locale | null;
  return chosen ?? supportedLocale(merchantLocale) ?? requestLocale(res);
}

/** The request's locale; English for an answer made before buyerLanguage ran (a refused request). */
export function requestLocale(res: Response): Locale {
  return (res.locals['locale'] as Locale | undefined) ?? DEFAULT_LOCALE;
}

/** What every page's layout needs to speak the buyer's language: lang, dir, the picker, messages. */
export function languageContext(res: Response, locale: Locale) {
  const messages: Messages = messagesFor(locale);
  return {
    nonce: res.locals['cspNonce'],
    lang: locale,
    dir: textDirection(locale),
    languages: NAMES,
    t: (key: string, values?: MessageValues) => messages.text(key, values),
    // Tags in the message (<strong>) as HTML; every value escaped first (@hc/i18n).
    th: (key: string, values?: MessageValues) => new nunjucks.runtime.SafeString(messages.html(key, values)),
  };
}
