/**
 * The query-string parser of the gateway (Express's 'query parser' setting). Node's querystring, which
 * Express's 'simple' parser uses, decodes malformed percent-encoding leniently: `%FF` or `%E0%A4%A`
 * become U+FFFD or stay as typed, so `?email=%FF` would search for a different address than the one
 * sent. Here a value that is not valid percent-encoded UTF-8 is kept as a MalformedQueryValue, which is
 * not a string, so every parameter check refuses it with the parameter's own code.
 */
export class MalformedQueryValue {
  readonly raw: string;
  constructor(raw: string) {
    this.raw = raw;
  }
}

export type QueryValue = string | MalformedQueryValue | (string | MalformedQueryValue)[];

function decode(component: string): string | MalformedQueryValue {
  try {
    return decodeURIComponent(component.replaceAll('+', ' '));
  } catch {
    return new MalformedQueryValue(component);
  }
}

/** `a=1&a=2&b` → { a: ['1', '2'], b: '' }. A parameter whose name is malformed names nothing we read. */
export function parseQuery(raw: string | null | undefined): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = Object.create(null) as Record<string, QueryValue>;
  for (const pair of (raw ?? '').split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decode(equals === -1 ? pair : pair.slice(0, equals));
    if (typeof name !== 'string') continue;
    const value = decode(equals === -1 ? '' : pair.slice(equals + 1));
    const previous = query[name];
    query[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return query;
}
