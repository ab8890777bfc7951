/**
 * fast-check arbitraries for requests to every operation of the OpenAPI document (docs/openapi.json),
 * derived from the document itself: its paths, methods, parameters and request-body schemas. A new
 * operation in the document is fuzzed without touching this file.
 *
 * Values come from the schemas (type, enum, integer bounds, object properties, `$ref`), mixed with
 * values that mean something to the platform for well-known names (amounts, currencies, emails, ids
 * of objects that exist) so requests also get past validation, and with hostile ones (wrong types,
 * control characters, lone surrogates, very long text, bodies that are not objects or not JSON).
 *
 * Written here instead of with json-schema-faker: the document's request schemas are shallow (types,
 * enums, bounds), and arbitraries keep fast-check's seeding and shrinking, so a failure replays
 * from its seed and shrinks to a small request.
 */
import fc, { type Arbitrary } from 'fast-check';

export type Json = Record<string, unknown>;

export interface Operation {
  readonly method: string;
  readonly template: string;
  readonly parameters: readonly Json[];
  readonly bodySchema: Json | undefined;
  /** The statuses the document lists for the operation. */
  readonly statuses: ReadonlySet<number>;
}

/** Ids that exist, by kind, for path parameters and cursors: the caller's own and another account's. */
export interface IdPools {
  readonly payments: readonly string[];
  readonly customers: readonly string[];
  readonly orders: readonly string[];
  readonly events: readonly string[];
  readonly endpoints: readonly string[];
  readonly paymentLinks: readonly string[];
}

export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string | undefined;
  readonly auth: 'own' | 'live' | 'other' | 'none' | 'malformed';
  readonly idempotencyKey: string | undefined;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the document. */
export function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document['paths'] as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const content = (operation['requestBody'] as Json | undefined)?.['content'] as Record<string, Json> | undefined;
      operations.push({
        method: method.toUpperCase(),
        template,
        parameters: [...((item['parameters'] as Json[] | undefined) ?? []), ...((operation['parameters'] as Json[] | undefined) ?? [])],
        bodySchema: content?.['application/json']?.['schema'] as Json | undefined,
        statuses: new Set(Object.keys(operation['responses'] as Json).map(Number)),
      });
    }
  }
  return operations;
}

/** Text that breaks things: control characters, a lone surrogate, markup, very long, not Latin. */
const hostileText = fc.oneof(
  fc.constantFrom('', ' ', '\u0000', 'a\u0007b', '\ud800', '<script>alert(1)</script>', "' OR 1=1 --", '../../etc/passwd', '%00', '💳'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 300, maxLength: 2000 }),
);

/** Values that mean something for a field or parameter of this name, beside what its schema allows. */
function meaningfulValues(name: string, ids: IdPools): Arbitrary<unknown> | undefined {
  const pick = (list: readonly string[]) => (list.length > 0 ? fc.constantFrom(...list) : fc.constant('pay_01JAAAAAAAAAAAAAAAAAAAAAAA'));
  switch (name) {
    case 'amount':
      return fc.oneof(fc.constantFrom('19.90', '0.50', '1', '10000.00', '0', '-5', '1e3', '12.345', '١٢'), fc.double().map(String));
    case 'currency':
      return fc.constantFrom('USD', 'EUR', 'usd', 'GBP', 'XXX', 'US');
    case 'email':
    case 'customer_email':
      return fc.oneof(fc.emailAddress(), fc.constantFrom('Ann@Example.com', 'not-an-email', 'a@b'));
    case 'country':
      return fc.constantFrom('de', 'US', 'ZZ', 'usa');
    case 'outcome':
      return fc.constantFrom('paid', 'underpaid', 'failed', 'expired', 'refunded');
    case 'success_url':
    case 'cancel_url':
      return fc.constantFrom(
        'https://shop.example/ok?p={PAYMENT_ID}&r={REFERENCE}',
        'http://shop.example/x',
        'javascript:alert(1)',
        'ftp://x',
      );
    case 'status':
      return fc.constantFrom('open', 'started', 'paid', 'held', 'failed', 'expired', 'canceled', '__proto__', 'constructor');
    case 'type':
      return fc.constantFrom('payment.paid', 'payment.started', 'payment.expired', 'ping', 'toString');
    case 'starting_after':
      return pick([...ids.payments, ...ids.customers, ...ids.orders, ...ids.events]);
    case 'created[gte]':
    case 'created[lt]':
    case 'created[lte]':
      return fc.oneof(fc.integer({ min: 0, max: 4_000_000_000 }).map(String), fc.constantFrom('-1', '1.5', 'yesterday'));
    case 'limit':
      return fc.constantFrom('0', '1', '100', '101', '-1', '2.5', 'ten');
    default:
      return undefined;
  }
}

/** An arbitrary for values of `schema` (resolving `$ref` in `document`), named `name` where it has one. */
export function schemaValue(schema: Json, document: Json, ids: IdPools, name = '', depth = 0): Arbitrary<unknown> {
  const ref = schema['$ref'] as string | undefined;
  if (ref) return schemaValue(resolve(document, ref), document, ids, name, depth);
  const meaningful = meaningfulValues(name, ids);
  const fromSchema = plainSchemaValue(schema, document, ids, depth);
  return fc.oneof(
    { weight: 2, arbitrary: meaningful ?? fromSchema },
    { weight: 2, arbitrary: fromSchema },
    { weight: 1, arbitrary: hostileText },
  );
}

function plainSchemaValue(schema: Json, document: Json, ids: IdPools, depth: number): Arbitrary<unknown> {
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  if ('const' in schema) return fc.constant(schema['const']);
  const types = Array.isArray(schema['type']) ? (schema['type'] as string[]) : [String(schema['type'] ?? 'string')];
  return fc.oneof(...types.map((type) => valueOfType(type, schema, document, ids, depth)));
}

function valueOfType(type: string, schema: Json, document: Json, ids: IdPools, depth: number): Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : -1_000;
      const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : 1_000_000;
      return fc.oneof(fc.integer({ min, max }), fc.integer(), fc.double());
    }
    case 'number':
      return fc.double();
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(schemaValue((schema['items'] as Json) ?? {}, document, ids, '', depth + 1), { maxLength: 3 });
    case 'object':
      return depth > 3 ? fc.constant({}) : objectValue(schema, document, ids, depth);
    default:
      return fc.string({ maxLength: 60 });
  }
}

function objectValue(schema: Json, document: Json, ids: IdPools, depth: number): Arbitrary<Json> {
  const properties = (schema['properties'] as Record<string, Json> | undefined) ?? {};
  const known = Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, schemaValue(sub, document, ids, key, depth + 1)]));
  const extra = schema['additionalProperties'];
  const extraValue = typeof extra === 'object' && extra !== null ? schemaValue(extra as Json, document, ids, '', depth + 1) : fc.string();
  return fc
    .tuple(
      fc.record(known, { requiredKeys: [] }),
      fc.option(
        fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'livemode', 'id')), extraValue, {
          minKeys: 1,
          maxKeys: 2,
        }),
        { nil: {}, freq: 3 },
      ),
    )
    .map(([own, more]) => ({ ...more, ...own }));
}

/** Percent-encoded as a browser would; a lone surrogate (which encodeURIComponent refuses) as its UTF-8 replacement. */
function percentEncoded(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.toWellFormed());
  }
}

function resolved(document: Json, schema: Json): Json {
  const ref = schema['$ref'] as string | undefined;
  return ref ? resolved(document, resolve(document, ref)) : schema;
}

function resolve(document: Json, ref: string): Json {
  let node: unknown = document;
  for (const part of ref.replace(/^#\//, '').split('/')) node = (node as Json)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  return node as Json;
}

/**
 * A body as it goes on the wire: the schema's JSON; a valid example with one field changed to a value
 * of its schema (so requests get past validation and reach the service); sometimes not an object or
 * not JSON at all.
 */
function wireBody(schema: Json, document: Json, ids: IdPools, example: Json | undefined): Arbitrary<string> {
  const properties = (resolved(document, schema)['properties'] as Record<string, Json> | undefined) ?? {};
  const mutated =
    example && Object.keys(properties).length > 0
      ? fc
          .constantFrom(...Object.keys(properties))
          .chain((name) =>
            fc.option(schemaValue(properties[name]!, document, ids, name), { nil: undefined, freq: 4 }).map((value) => ({ name, value })),
          )
          .map(({ name, value }) => JSON.stringify(value === undefined ? example : { ...example, [name]: value }))
      : schemaValue(schema, document, ids).map((value) => JSON.stringify(value) ?? 'null');
  return fc.oneof(
    { weight: 4, arbitrary: mutated },
    { weight: 3, arbitrary: schemaValue(schema, document, ids).map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"amount": "1",}', '[]', 'null', '{"a":' + '['.repeat(5000)) },
  );
}

/** The path's parameters filled in: ids that exist (the caller's or another account's) or hostile text. */
function pathOf(template: string, ids: IdPools): Arbitrary<string> {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  if (names.length === 0) return fc.constant(template);
  const pool = template.startsWith('/v1/customers')
    ? ids.customers
    : template.startsWith('/v1/orders')
      ? ids.orders
      : template.startsWith('/v1/events')
        ? ids.events
        : template.startsWith('/v1/webhook_endpoints')
          ? ids.endpoints
          : template.startsWith('/v1/payment_links')
            ? ids.paymentLinks
            : ids.payments;
  const segment = fc.oneof(
    { weight: 3, arbitrary: pool.length > 0 ? fc.constantFrom(...pool) : fc.constant('pay_01JAAAAAAAAAAAAAAAAAAAAAAA') },
    { weight: 1, arbitrary: fc.constantFrom(...[...ids.payments, ...ids.customers, ...ids.events].slice(0, 20), 'x') },
    { weight: 1, arbitrary: hostileText.filter((text) => text.length > 0 && text.length < 1000).map(percentEncoded) },
  );
  return fc
    .tuple(...names.map(() => segment))
    .map((values) => names.reduce((path, name, i) => path.replace(`{${name}}`, values[i]!), template));
}

/** The query string: the operation's parameters (some), values from their schemas, sometimes one unknown. */
function queryOf(parameters: readonly Json[], document: Json, ids: IdPools): Arbitrary<string> {
  const query = parameters.filter((parameter) => parameter['in'] === 'query');
  const entries = query.map((parameter) =>
    fc.option(
      schemaValue((parameter['schema'] as Json) ?? {}, document, ids, String(parameter['name'])).map(
        (value) => [String(parameter['name']), typeof value === 'string' ? value : JSON.stringify(value)] as const,
      ),
      { nil: undefined, freq: 2 },
    ),
  );
  const unknown = fc.option(fc.tuple(fc.constantFrom('expand', 'limit[]', 'starting_after', 'foo'), fc.string({ maxLength: 10 })), {
    nil: undefined,
    freq: 5,
  });
  return fc.tuple(fc.tuple(...entries), unknown).map(([chosen, extra]) => {
    const pairs = [...chosen, extra].filter((pair): pair is readonly [string, string] => pair !== undefined);
    return pairs.length === 0 ? '' : `?${pairs.map(([key, value]) => `${percentEncoded(key)}=${percentEncoded(value)}`).join('&')}`;
  });
}

/** A whole request to `operation`. */
export function requestTo(operation: Operation, document: Json, ids: IdPools, example?: Json): Arbitrary<FuzzRequest> {
  return fc.record({
    method: fc.constant(operation.method),
    path: fc.tuple(pathOf(operation.template, ids), queryOf(operation.parameters, document, ids)).map(([path, query]) => path + query),
    body: operation.bodySchema
      ? fc.option(wireBody(operation.bodySchema, document, ids, example), { nil: undefined, freq: 10 })
      : fc.constant(undefined),
    auth: fc.oneof(
      { weight: 12, arbitrary: fc.constant('own' as const) },
      { weight: 1, arbitrary: fc.constantFrom('live' as const, 'other' as const, 'none' as const, 'malformed' as const) },
    ),
    // Printable ASCII only: fetch itself refuses other header values (the raw-socket tests send those).
    idempotencyKey:
      operation.method === 'POST'
        ? fc.option(fc.stringMatching(/^[\x21-\x7e]{1,300}$/), { nil: undefined, freq: 3 })
        : fc.constant(undefined),
  });
}
