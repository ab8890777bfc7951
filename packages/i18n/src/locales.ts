import { match } from '@formatjs/intl-localematcher';

/**
 * The locales the buyer's pages and mails speak (docs/adr/0089). Tags as BCP 47 writes them; the
 * API's `locale` takes exactly these (any letter case).
 */
export const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt-BR', 'pl', 'ja', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set(['ar']);

/** "pt-br" → "pt-BR"; null for anything that is not one of LOCALES (no guessing: the API refuses it). */
export function supportedLocale(tag: unknown): Locale | null {
  if (typeof tag !== 'string') return null;
  const lower = tag.toLowerCase();
  return LOCALES.find((locale) => locale.toLowerCase() === lower) ?? null;
}

export function textDirection(locale: Locale): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(locale) ? 'rtl' : 'ltr';
}

/**
 * The best of LOCALES for the buyer's languages, most preferred first (Accept-Language already sorted
 * by q-value, as Express's req.acceptsLanguages() gives it): "best fit" matching, so de-AT → de,
 * pt and pt-PT → pt-BR, ar-EG → ar; the default when none fits. Kept per distinct list (few per day).
 */
export function negotiateLocale(languages: readonly string[]): Locale {
  const key = languages.join(',');
  let locale = negotiated.get(key);
  if (locale === undefined) {
    locale = matchLocale(languages);
    if (negotiated.size >= MAX_CACHED) negotiated.clear();
    negotiated.set(key, locale);
  }
  return locale;
}

const MAX_CACHED = 500;
const negotiated = new Map<string, Locale>();

function matchLocale(languages: readonly string[]): Locale {
  const requested = languages.filter((tag) => tag !== '*' && isLanguageTag(tag));
  if (requested.length === 0) return DEFAULT_LOCALE;
  return supportedLocale(match(requested, LOCALES, DEFAULT_LOCALE, { algorithm: 'best fit' })) ?? DEFAULT_LOCALE;
}

function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** Each locale named in its own language, for the language picker ("Deutsch", "日本語"). */
export function localeNames(): readonly { locale: Locale; name: string }[] {
  return LOCALES.map((locale) => {
    const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
    return { locale, name: name.charAt(0).toLocaleUpperCase(locale) + name.slice(1) };
  });
}
