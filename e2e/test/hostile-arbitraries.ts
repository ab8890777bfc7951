/**
 * fast-check generators of hostile input for the fuzz suite: text with NUL and other C0 controls,
 * lone surrogates, BOMs, line separators, long runs and look-alikes of our own syntax; malformed
 * percent-encoding; request bodies shaped like every endpoint's, with hostile values in known fields.
 */
import fc from 'fast-check';

/** One "character" of hostile text: any code point, often a control, a lone surrogate or a trap. */
const hostileUnit: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\u007f',
      '\u0085',
      '\u00a0',
      '\u2028',
      '\u2029',
      '\ufeff',
      '\ufffd',
      '\u202e',
      '😀',
      '%00',
      '%',
      '\\u0000',
      '"',
      '\\',
      '__proto__',
    ),
  },
);

/** Hostile text, from empty to over every documented length limit. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: hostileUnit, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.tuple(hostileUnit, fc.integer({ min: 100, max: 1200 })).map(([unit, n]) => unit.repeat(n)) },
);

/** Text a merchant may well send: any script, no controls, well-formed, within every length limit. */
export const cleanText: fc.Arbitrary<string> = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 10 })
  .filter((s) => s.trim() !== '' && !s.startsWith('__') && [...s].every((c) => c.codePointAt(0)! >= 0x20));

/** Metadata values may also hold tab, line feed and carriage return. */
const cleanValue: fc.Arbitrary<string> = fc
  .tuple(cleanText, fc.constantFrom('', '\n', '\r\n', '\t'), cleanText)
  .map((parts) => parts.join(''));

/** A body that should be accepted: valid fields, text in any script, often with line breaks in metadata. */
export const acceptableCreateBody: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    amount: fc.constantFrom('10.00', '1.00', '99.99'),
    currency: fc.constantFrom('USD', 'eur'),
    description: cleanText,
    reference: cleanText,
    metadata: fc.dictionary(cleanText, cleanValue, { maxKeys: 4 }),
  },
  { requiredKeys: ['amount', 'currency', 'description'] },
);

/** An email address with hostile text inside it, so it passes a format check and reaches the store. */
export const hostileEmail: fc.Arbitrary<string> = fc
  .tuple(fc.string({ unit: hostileUnit, minLength: 1, maxLength: 3 }), fc.constantFrom('start', 'local', 'end'))
  .map(([bad, where]) =>
    where === 'start' ? `${bad}ann@example.com` : where === 'local' ? `a${bad}n@example.com` : `ann@example.com${bad}`,
  );

/** A JSON value of any type, for fields that should be strings (wrong types are refused too). */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.constantFrom(null, true, 0, -1, 1e308, [], {}) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Percent-encodes text as UTF-8 where it can; a lone surrogate is sent as its (invalid) CESU bytes. */
export function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`;
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** A path segment or query value as it appears in the URL: encoded hostile text or malformed escapes. */
export const hostileUrlComponent: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileText.map(percentEncode) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%0', '%ZZ', '%E0%A4%A', '%C0%AF', '%FF', '%ED%A0%80', '%00', 'pay_%00', '%2e%2e', '..') },
  { weight: 1, arbitrary: fc.constantFrom('pay_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'cus_01ARZ3NDEKTSV4RRFFQ69G5FAV', '') },
);

/** A query string of known and unknown parameters, some repeated, with hostile values. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('limit', 'starting_after', 'email', 'customer_id'), hostileUrlComponent),
      fc.oneof(hostileUrlComponent, hostileEmail.map(percentEncode), fc.integer({ min: -5, max: 200 }).map(String)),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'));

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });

const address = fc.record(
  { name: anyJson, line1: anyJson, line2: anyJson, city: anyJson, region: anyJson, postal_code: anyJson, country: anyJson },
  { requiredKeys: [] },
);

/** Paths of a create body's text fields, for bodies valid but for one of them. */
const TEXT_PATHS = [
  'description',
  'reference',
  'customer_email',
  'success_url',
  'cancel_url',
  'metadata.key',
  'metadata.value',
  'customer.email',
  'customer.name',
  'customer.phone',
  'customer.shipping_address.line1',
  'customer.billing_address.city',
  'customer.store_account.store_id',
] as const;

/**
 * A valid body but for one text field, which holds hostile text: the shape of the attack script's
 * requests, the one that gets past every other check and reaches the store.
 */
export const oneHostileFieldBody: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(fc.constantFrom(...TEXT_PATHS), fc.oneof(hostileText, hostileEmail))
  .map(([path, bad]) => {
    const body: Record<string, unknown> = { amount: '10.00', currency: 'USD', description: 'Mug' };
    if (path === 'metadata.key') body['metadata'] = { [bad]: 'v' };
    else if (path === 'metadata.value') body['metadata'] = { k: bad };
    else if (path.endsWith('_url')) body[path] = `https://shop.example/${bad}`;
    else if (path.startsWith('customer.')) {
      const [, part, leaf] = path.split('.') as [string, string, string | undefined];
      const store = part === 'store_account' ? { platform: 'shopify', store_id: 's1' } : {};
      body['customer'] = leaf === undefined ? { [part]: bad } : { [part]: { ...store, [leaf]: bad } };
    } else body[path] = bad;
    return body;
  });

/** A create body: every known field present or not, valid or hostile, plus unknown fields. */
export const hostileCreateBody: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    amount: fc.oneof(fc.constantFrom('10.00', '1.00', '100000.00'), anyJson),
    currency: fc.oneof(fc.constantFrom('USD', 'eur'), anyJson),
    description: fc.oneof(cleanText, anyJson),
    customer_email: fc.oneof(fc.constantFrom('ann@example.com', null), anyJson),
    reference: fc.oneof(cleanText, anyJson),
    metadata: fc.oneof(fc.dictionary(hostileText, fc.oneof(cleanText, hostileText), { maxKeys: 4 }), anyJson),
    success_url: fc.oneof(
      fc.constantFrom('https://shop.example/ok'),
      hostileText.map((t) => `https://shop.example/${t}`),
      anyJson,
    ),
    customer: optional(
      fc.record(
        {
          email: anyJson,
          name: fc.oneof(cleanText, anyJson),
          phone: anyJson,
          shipping_address: optional(address),
          store_account: optional(fc.record({ platform: anyJson, store_id: anyJson }, { requiredKeys: [] })),
        },
        { requiredKeys: [] },
      ),
    ),
    x_unknown: anyJson,
  },
  { requiredKeys: [] },
);

/** A body as sent on the wire: usually JSON of `body`, sometimes raw text that is barely JSON. */
export function wireBody(body: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: body.map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'null',
        '[]',
        '"x"',
        '{',
        '{"amount":"10.00",}',
        '{"description":"\\ud800"}',
        '{"a":"\\u0000"}',
        `${'['.repeat(50)}${']'.repeat(50)}`,
      ),
    },
    { weight: 1, arbitrary: hostileText },
  );
}

/** Header values fetch can carry (Latin-1, no CR/LF/NUL); raw-socket cases send the rest. */
export const headerValue: fc.Arbitrary<string> = fc.string({ unit: 'grapheme-ascii', maxLength: 150 });
