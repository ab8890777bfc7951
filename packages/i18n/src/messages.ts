import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import type { Locale } from './locales.ts';

/** A locale's messages: key → ICU MessageFormat text. */
export type Catalogue = Readonly<Record<string, string>>;

/** Shown instead of a message the catalogue lacks: tests look for it (it must never reach a buyer). */
export const MISSING_MARK = '⟦missing⟧';

export type MessageValues = Record<string, PrimitiveType | Date>;

/** Named formats the messages may use: `{paidAt, date, utc}` is a date and time in UTC, saying so. */
const FORMATS = {
  date: {
    utc: { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' },
  },
  time: {},
  number: {},
} as const;

export interface Messages {
  readonly locale: Locale;
  has(key: string): boolean;
  /** The message as plain text (the template escapes it). */
  text(key: string, values?: MessageValues): string;
  /**
   * The message with its tags (`<strong>…</strong>`) as HTML: every value is escaped first, the
   * catalogue's own text is ours. Only tags named in TAGS are allowed.
   */
  html(key: string, values?: MessageValues): string;
}

const TAGS: Record<string, (chunks: string[]) => string> = {
  strong: (chunks) => `<strong>${chunks.join('')}</strong>`,
};

/** Messages of one locale; each message is parsed once, when first used, and kept. */
export function messagesOf(locale: Locale, catalogue: Catalogue): Messages {
  const built = new Map<string, IntlMessageFormat>();
  function format(key: string): IntlMessageFormat | null {
    let message = built.get(key);
    if (message === undefined) {
      const source = catalogue[key];
      if (source === undefined) return null;
      message = new IntlMessageFormat(source, locale, FORMATS);
      built.set(key, message);
    }
    return message;
  }
  return {
    locale,
    has: (key) => key in catalogue,
    text(key, values) {
      const message = format(key);
      return message ? String(message.format(values)) : `${MISSING_MARK}${key}`;
    },
    html(key, values) {
      const message = format(key);
      if (!message) return `${MISSING_MARK}${key}`;
      const escaped = Object.fromEntries(Object.entries(values ?? {}).map(([name, value]) => [name, escapeValue(value)]));
      const parts = message.format<string>({ ...escaped, ...TAGS });
      return Array.isArray(parts) ? parts.join('') : String(parts);
    },
  };
}

function escapeValue(value: PrimitiveType | Date): PrimitiveType | Date {
  return typeof value === 'string' ? escapeHtml(value) : value;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
