import { ApiError } from '@hc/errors';
import { formatPrice, isWithin, parseCurrency, parsePrice, type Currency } from '@hc/money';
import { EMAIL_ADDRESS_MAX_LENGTH, normalEmailAddress } from '@hc/conversions';
import { supportedLocale } from '@hc/i18n';

/**
 * The rules of "Create a checkout session", as one pure function: raw values in, normalized fields
 * out, or an ApiError naming the first field at fault. Unknown fields never reach this point (the
 * gateway drops them).
 */
export interface NewPaymentRequest {
  amount: string;
  currency: string;
  description: string;
  customerEmail?: string | undefined;
  reference?: string | undefined;
  metadata?: Record<string, string> | undefined;
  successUrl?: string | undefined;
  cancelUrl?: string | undefined;
  locale?: string | undefined;
}

export interface NewPaymentFields {
  amount: string;
  currency: Currency;
  description: string;
  customerEmail: string | null;
  reference: string | null;
  metadata: Record<string, string> | null;
  successUrl: string | null;
  cancelUrl: string | null;
  /** The buyer's language, as @hc/i18n spells it ("pt-br" → "pt-BR"); null: the buyer's browser decides. */
  locale: string | null;
}

export const LIMITS = {
  minAmount: '1.00',
  maxAmount: '100000.00',
  description: 120,
  reference: 120,
  metadataKeys: 20,
  metadataKeyLength: 40,
  metadataValueLength: 500,
  url: 1000,
  email: EMAIL_ADDRESS_MAX_LENGTH,
} as const;

/** Length in characters (code points), not UTF-16 units: "é" and "😀" count once. */
function length(value: string): number {
  return [...value].length;
}

/**
 * The platform's one email rule (@hc/conversions, issue 47 item 7): no domain literal, angle bracket or
 * display name, lowercased. Deliverability is the buyer's matter.
 */
export function normalizeEmail(raw: string, field: string): string {
  const email = normalEmailAddress(raw);
  if (email === undefined) throw new ApiError('invalid_email', `${field} must be a valid email address.`, field);
  return email;
}

function checkAmount(raw: string): string {
  const price = parsePrice(raw);
  if (!price || !isWithin(price, LIMITS.minAmount, LIMITS.maxAmount)) {
    throw new ApiError('invalid_amount', undefined, 'amount');
  }
  return formatPrice(price);
}

function checkCurrency(raw: string): Currency {
  const currency = parseCurrency(raw);
  if (!currency) throw new ApiError('invalid_currency', undefined, 'currency');
  return currency;
}

function checkText(raw: string, max: number, code: 'invalid_description' | 'invalid_reference', field: string): string {
  if (raw.trim() === '' || length(raw) > max) {
    throw new ApiError(code, `${field} must be a string of 1 to ${max} characters.`, field);
  }
  return raw;
}

function checkMetadata(metadata: Record<string, string>): Record<string, string> {
  const keys = Object.keys(metadata);
  if (keys.length > LIMITS.metadataKeys) {
    throw new ApiError('invalid_metadata', `metadata can have at most ${LIMITS.metadataKeys} keys.`, 'metadata');
  }
  for (const key of keys) {
    if (length(key) < 1 || length(key) > LIMITS.metadataKeyLength || key.startsWith('__')) {
      throw new ApiError(
        'invalid_metadata',
        `metadata keys must be 1 to ${LIMITS.metadataKeyLength} characters and not start with "__" (${JSON.stringify(key)}).`,
        'metadata',
      );
    }
    if (length(metadata[key]!) > LIMITS.metadataValueLength) {
      throw new ApiError(
        'invalid_metadata',
        `metadata values must be at most ${LIMITS.metadataValueLength} characters (key ${JSON.stringify(key)}).`,
        'metadata',
      );
    }
  }
  return { ...metadata };
}

/** Return URL rules: full http(s) address, https only in Live mode, no credentials, bounded length. */
export function checkReturnUrl(raw: string, field: string, livemode: boolean): string {
  const fail = (why: string): never => {
    throw new ApiError('invalid_url', `${field} ${why}.`, field);
  };
  if (length(raw) > LIMITS.url) fail(`must be at most ${LIMITS.url} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('must be a full http:// or https:// address');
  }
  if (!/^https?:\/\//i.test(raw) || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
    fail('must be a full http:// or https:// address');
  }
  if (livemode && url.protocol !== 'https:') fail('must use https:// in Live mode');
  if (url.username !== '' || url.password !== '') fail('must not contain a username or password');
  return raw;
}

export function newPaymentFields(request: NewPaymentRequest, livemode: boolean): NewPaymentFields {
  return {
    amount: checkAmount(request.amount),
    currency: checkCurrency(request.currency),
    description: checkText(request.description, LIMITS.description, 'invalid_description', 'description'),
    customerEmail: request.customerEmail === undefined ? null : normalizeEmail(request.customerEmail, 'customer_email'),
    reference: request.reference === undefined ? null : checkText(request.reference, LIMITS.reference, 'invalid_reference', 'reference'),
    metadata: request.metadata === undefined ? null : checkMetadata(request.metadata),
    successUrl: request.successUrl === undefined ? null : checkReturnUrl(request.successUrl, 'success_url', livemode),
    cancelUrl: request.cancelUrl === undefined ? null : checkReturnUrl(request.cancelUrl, 'cancel_url', livemode),
    locale: request.locale === undefined ? null : checkLocale(request.locale),
  };
}

/** One of the locales the buyer's pages and mails speak (docs/adr/0089); nothing is guessed. */
function checkLocale(raw: string): string {
  const locale = supportedLocale(raw);
  if (!locale) throw new ApiError('invalid_locale', undefined, 'locale');
  return locale;
}
