// Risk covered: hostile text and malformed requests (issue 20) turning into a 500, being stored
// rewritten (a lone surrogate or a byte that is not UTF-8 as U+FFFD), or being refused without the API's
// error body; a body whose repeated name means one thing to us and another to a proxy or log (issue 35,
// item 10). Each case the attack script found is a test here; the fuzz suite
// (hostile-input.fuzz.e2e.test.ts) covers the rest.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, create, createSession, expectError, VALID_BODY, type Json } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';
import { writeCounts } from './raw-http.ts';

let platform: Platform;
let merchant: TestMerchant;

beforeAll(async () => {
  platform = await startPlatform();
  merchant = await platform.merchant();
});
afterAll(async () => {
  await platform.stop();
});

/** `value` placed at a dotted path of a valid create body. */
function bodyWith(path: string, value: unknown): Json {
  const body: Json = structuredClone(VALID_BODY) as Json;
  const keys = path.split('.');
  let node = body;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Json;
  node[keys.at(-1)!] = value;
  if (path.startsWith('customer.store_account.'))
    (body['customer'] as Json)['store_account'] = {
      platform: 'shopify',
      store_id: 's1',
      ...((body['customer'] as Json)['store_account'] as Json),
    };
  return body;
}

/** A create that must be refused with `code` and `field`, and write nothing. */
async function expectRefusedCreate(body: unknown, code: string, field: string): Promise<void> {
  const before = await writeCounts(platform);
  await expectError(await create(platform, merchant.testKey, body), 400, code, field);
  expect(await writeCounts(platform)).toEqual(before);
}

// Each field the attack script found answering 500 with a NUL, and what it must answer instead.
const FIELDS: [string, string, string][] = [
  ['customer_email', 'ann@example.com\u0000', 'invalid_email'],
  ['description', 'Mug\u0000', 'invalid_description'],
  ['reference', 'order-1\u0000', 'invalid_reference'],
  ['success_url', 'https://shop.example/ok\u0000', 'invalid_url'],
  ['customer.name', 'Ann\u0000', 'invalid_customer'],
  ['customer.shipping_address.line1', '1 Main St\u0000', 'invalid_customer'],
  ['customer.store_account.store_id', 'store\u0000', 'invalid_customer'],
];

describe('a NUL character is refused with the field code, never a 500', () => {
  it.each(FIELDS)('NUL in %s at create is 400 with its code and field', async (path, value, code) => {
    await expectRefusedCreate(bodyWith(path, value), code, path);
  });

  it('the issue example (NUL at the end of customer_email) is 400 invalid_email', async () => {
    await expectRefusedCreate(
      { amount: '10.00', currency: 'usd', description: 'Mug', customer_email: 'ann@example.com\u0000' },
      'invalid_email',
      'customer_email',
    );
  });

  it('NUL in a metadata key is 400 invalid_metadata, not accepted and echoed', async () => {
    await expectRefusedCreate({ ...VALID_BODY, metadata: { 'order\u0000': '1' } }, 'invalid_metadata', 'metadata');
  });

  it('NUL in a metadata value is 400 invalid_metadata, not accepted and echoed', async () => {
    await expectRefusedCreate({ ...VALID_BODY, metadata: { order: '1\u0000' } }, 'invalid_metadata', 'metadata');
  });

  it('NUL in customer_email at start is 400 invalid_email and the session stays open', async () => {
    const session = await createSession(platform, merchant.testKey);
    const start = await platform.request('POST', `/v1/checkout_sessions/${String(session['id'])}/start`, {
      key: merchant.testKey,
      body: { customer_email: 'ann@example.com\u0000', country: 'US' },
    });
    await expectError(start, 400, 'invalid_email', 'customer_email');
    const read = await bodyOf(await platform.request('GET', `/v1/checkout_sessions/${String(session['id'])}`, { key: merchant.testKey }));
    expect(read).toMatchObject({ status: 'open', started_at: null, customer_email: null });
  });

  it('GET /v1/customers?email=%00 is 400 invalid_email on field email', async () => {
    await expectError(await platform.request('GET', '/v1/customers?email=%00', { key: merchant.testKey }), 400, 'invalid_email', 'email');
  });

  it.each([
    ['starting_after', '/v1/payments?starting_after=pay_%00', 'invalid_cursor'],
    ['customer_id', '/v1/orders?customer_id=cus_%00', 'invalid_request'],
  ])('a NUL in the %s query parameter is 400 with its code', async (field, path, code) => {
    await expectError(await platform.request('GET', path, { key: merchant.testKey }), 400, code, field);
  });
});

describe('other control characters are refused like NUL', () => {
  it.each([
    ['U+0001 in description', 'description', 'Mug\u0001', 'invalid_description'],
    ['U+001F in reference', 'reference', 'a\u001fb', 'invalid_reference'],
    ['a line feed in description', 'description', 'Blue\nmug', 'invalid_description'],
    ['ESC in customer.phone', 'customer.phone', '+1 555\u001b', 'invalid_customer'],
  ])('%s is 400 with the field code', async (_label, path, value, code) => {
    await expectRefusedCreate(bodyWith(path, value), code, path);
  });

  it('a metadata value may hold tab, line feed and carriage return (documented) and comes back byte for byte', async () => {
    const metadata = { note: 'line one\r\nline two\ttabbed' };
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, metadata });
    expect(session['metadata']).toEqual(metadata);
  });
});

describe('lone UTF-16 surrogates are refused, never rewritten to U+FFFD', () => {
  it('the issue example ("\\"\\ud800\\"@x.y" as customer_email) is 400 invalid_email', async () => {
    await expectRefusedCreate({ ...VALID_BODY, customer_email: '"\ud800"@x.y' }, 'invalid_email', 'customer_email');
  });

  it.each([
    ['description', 'Mug \ud800', 'invalid_description'],
    ['reference', '\udc00ref', 'invalid_reference'],
    ['customer.name', 'Ann \udbff', 'invalid_customer'],
    ['customer.billing_address.city', 'Paris\ud800', 'invalid_customer'],
  ])('a lone surrogate in %s is 400 with its code and field', async (path, value, code) => {
    await expectRefusedCreate(bodyWith(path, value), code, path);
  });

  it('a lone surrogate in a metadata key or value is 400 invalid_metadata', async () => {
    await expectRefusedCreate({ ...VALID_BODY, metadata: { '\ud800': 'x' } }, 'invalid_metadata', 'metadata');
    await expectRefusedCreate({ ...VALID_BODY, metadata: { k: 'x\udfff' } }, 'invalid_metadata', 'metadata');
  });

  it('a lone surrogate sent as a JSON escape in the raw body text is refused the same way', async () => {
    const raw = '{"amount":"10.00","currency":"usd","description":"Mug \\ud800"}';
    const before = await writeCounts(platform);
    await expectError(await create(platform, merchant.testKey, raw), 400, 'invalid_description', 'description');
    expect(await writeCounts(platform)).toEqual(before);
  });

  it('well-formed text beyond the BMP (a surrogate pair) is accepted and returned byte for byte', async () => {
    const text = { description: 'Mug 😀 𝄞 Ünïcödé', reference: '参考-👍', metadata: { '🔑': '値 🎉' } };
    const session = await createSession(platform, merchant.testKey, { ...VALID_BODY, ...text });
    expect({ description: session['description'], reference: session['reference'], metadata: session['metadata'] }).toEqual(text);
  });
});

describe('malformed percent-encoding is refused with the error body and no-store', () => {
  it.each([
    ['email', '/v1/customers?email=%E0%A4%A', 'invalid_email'],
    ['email', '/v1/customers?email=%FF%40x.y', 'invalid_email'],
    ['starting_after', '/v1/payments?starting_after=%', 'invalid_cursor'],
    ['limit', '/v1/orders?limit=1%G0', 'invalid_limit'],
  ])('a malformed %s query parameter is 400 with its code, not a rewritten value', async (field, path, code) => {
    const response = await platform.request('GET', path, { key: merchant.testKey });
    expect(response.headers.get('cache-control')).toBe('no-store');
    await expectError(response, 400, code, field);
  });

  it.each([['/v1/checkout_sessions/%E0%A4%A'], ['/v1/payments/pay_%ZZ'], ['/v1/customers/%C0%AF'], ['/v1/checkout_sessions/pay_%00']])(
    'a malformed or control-character path id (%s) is 404 not_found with no-store and a request id',
    async (path) => {
      const response = await platform.request('GET', path, { key: merchant.testKey });
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      await expectError(response, 404, 'not_found');
    },
  );
});

/** A POST of `bytes` as they are (no re-encoding), as application/json. */
function postBytes(path: string, bytes: Buffer, contentType = 'application/json'): Promise<Response> {
  return fetch(`${platform.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.testKey}`, 'content-type': contentType },
    body: bytes,
  });
}

/** A create body whose description holds `raw` bytes between "Mug " and the closing quote. */
const createWithBytes = (raw: number[]): Buffer =>
  Buffer.concat([
    Buffer.from('{"amount":"10.00","currency":"usd","description":"Mug '),
    Buffer.from(raw),
    Buffer.from('","customer_email":"ann@example.com"}'),
  ]);

describe('a body that is not UTF-8 is refused, never read with U+FFFD in place of its bytes', () => {
  it.each([
    ['a lone 0xFF byte', [0xff]],
    ['a Latin-1 é (0xE9) as a Latin-1 client sends it', [0xe9]],
    ['an overlong "/" (0xC0 0xAF)', [0xc0, 0xaf]],
    ['a surrogate encoded as UTF-8 (CESU, 0xED 0xA0 0x80)', [0xed, 0xa0, 0x80]],
    ['a sequence cut short (0xE2 0x82)', [0xe2, 0x82]],
    ['a code point above U+10FFFF (0xF4 0x90 0x80 0x80)', [0xf4, 0x90, 0x80, 0x80]],
  ])('%s in a create body is 400 invalid_json and writes nothing', async (_label, raw) => {
    const before = await writeCounts(platform);
    const body = await expectError(await postBytes('/v1/checkout_sessions', createWithBytes(raw)), 400, 'invalid_json');
    expect(body).toMatchObject({ error: { message: 'The request body is not valid UTF-8.' } });
    expect(await writeCounts(platform)).toEqual(before);
  });

  it('the same body in well-formed UTF-8 (é as 0xC3 0xA9) is created with the text as sent', async () => {
    const response = await postBytes('/v1/checkout_sessions', createWithBytes([0xc3, 0xa9]));
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ description: 'Mug é' });
  });

  it('a start or simulate body with a byte that is not UTF-8 is 400 invalid_json and changes nothing', async () => {
    const session = await createSession(platform, merchant.testKey);
    const id = String(session['id']);
    const start = Buffer.concat([
      Buffer.from('{"customer_email":"ann@example.com","country":"US","x":"'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    await expectError(await postBytes(`/v1/checkout_sessions/${id}/start`, start), 400, 'invalid_json');
    const read = await bodyOf(await platform.request('GET', `/v1/checkout_sessions/${id}`, { key: merchant.testKey }));
    expect(read).toMatchObject({ status: 'open', started_at: null });
    const simulate = Buffer.concat([Buffer.from('{"outcome":"paid","note":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]);
    await expectError(await postBytes(`/v1/payments/${id}/simulate`, simulate), 400, 'invalid_json');
  });

  it('a JSON body declared UTF-16 is 415 unsupported_media_type (JSON between systems is UTF-8)', async () => {
    const utf16 = Buffer.from(JSON.stringify(VALID_BODY), 'utf16le');
    const response = await postBytes('/v1/checkout_sessions', utf16, 'application/json; charset=utf-16le');
    await expectError(response, 415, 'unsupported_media_type');
  });
});

describe('a body whose object repeats a name is refused, never read as its last value', () => {
  it.each([
    ['amount at the top level', '{"amount":"1.00","currency":"usd","description":"Mug","amount":"99999.00"}'],
    ['the same name spelled with an escape', '{"amount":"1.00","currency":"usd","description":"Mug","\u0061mount":"2.00"}'],
    ['a metadata key', '{"amount":"1.00","currency":"usd","description":"Mug","metadata":{"order":"1","order":"2"}}'],
    ['a customer field', '{"amount":"1.00","currency":"usd","description":"Mug","customer":{"name":"Ann","name":"Bob"}}'],
  ])('%s twice in a create body is 400 invalid_json and writes nothing', async (_label, raw) => {
    const before = await writeCounts(platform);
    const body = await expectError(await create(platform, merchant.testKey, raw), 400, 'invalid_json');
    expect(String((body['error'] as Json)['message'])).toMatch(/repeats the name/);
    expect(await writeCounts(platform)).toEqual(before);
  });

  it('a start body with country twice is 400 invalid_json and the session stays open', async () => {
    const session = await createSession(platform, merchant.testKey);
    const id = String(session['id']);
    const start = await platform.request('POST', `/v1/checkout_sessions/${id}/start`, {
      key: merchant.testKey,
      body: '{"customer_email":"ann@example.com","country":"US","country":"DE"}',
    });
    await expectError(start, 400, 'invalid_json');
    const read = await bodyOf(await platform.request('GET', `/v1/checkout_sessions/${id}`, { key: merchant.testKey }));
    expect(read).toMatchObject({ status: 'open', started_at: null });
  });

  it('the same name in different objects, and a value equal to a name, are ordinary JSON', async () => {
    const session = await createSession(platform, merchant.testKey, {
      ...VALID_BODY,
      metadata: { amount: 'amount', description: 'x' },
      customer: { name: 'Ann', shipping_address: { name: 'Ann', country: 'DE' } },
    });
    expect(session['metadata']).toEqual({ amount: 'amount', description: 'x' });
  });
});
