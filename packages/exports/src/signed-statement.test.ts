import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { readStatement, statementKeysFromJwks, verifyStatementSignature } from '@hosted-checkout/sdk';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { writeSignedCsv, writeSignedJson, type StatementHeader } from './signed-statement.ts';
import { statementRows } from './statement.ts';
import { newStatementKey, parsePublicKeys, parseSigningKey, statementKeysDocument } from './statement-keys.ts';

const paid = (id: string, valueCoin: string, merchantReceived: string) => ({
  exported: {
    id,
    status: 'paid',
    amount: valueCoin,
    currency: 'USD',
    description: 'x',
    createdAt: 1_000n,
    paidAt: 1_780_000_000_000n,
    mode: 'live',
    coin: 'polygon_usdc',
    valueCoin,
    merchantReceived,
    txidIn: `0x${'a'.repeat(64)}`,
    txidOut: `0x${'b'.repeat(64)}`,
    payoutWallet: '0x1111111111111111111111111111111111111111',
  } as Payment,
  usdValue: valueCoin,
});

async function* exported() {
  yield paid('pay_1', '10.000000', '9.850000');
  yield paid('pay_2', '0.300000', '0.295500');
}

const header: StatementHeader = {
  account: 'acct_1',
  mode: 'live',
  from: '2026-05-28',
  to: '2026-05-28',
  created: new Date('2026-05-29T08:00:00Z'),
};
const current = newStatementKey('stmt-2');
const signer = parseSigningKey(current.signingKey);
const published = statementKeysFromJwks(JSON.parse(JSON.stringify(statementKeysDocument(parsePublicKeys(current.publicKey)))));

async function produce(format: 'csv' | 'json', by = signer): Promise<Buffer> {
  const out = new PassThrough();
  const [bytes] = await Promise.all([
    buffer(out),
    (format === 'csv' ? writeSignedCsv : writeSignedJson)(statementRows(exported()), header, by, out),
  ]);
  return bytes;
}

const verdict = (bytes: Buffer) => verifyStatementSignature(readStatement(bytes), published);

describe('a signed statement', () => {
  it.each(['csv', 'json'] as const)('as %s verifies with the published key and carries every line', async (format) => {
    const bytes = await produce(format);
    expect(verdict(bytes)).toEqual({ ok: true, keyId: 'stmt-2' });
    const read = readStatement(bytes);
    expect(read.seal).toMatchObject({ format, account: 'acct_1', mode: 'live', from: '2026-05-28', created: '2026-05-29T08:00:00.000Z' });
    expect(read.lines.map((line) => [line['payment'], line['arrived'], line['fee'], line['forwarded']])).toEqual([
      ['pay_1', '10.000000', '0.15', '9.850000'],
      ['pay_2', '0.300000', '0.0045', '0.295500'],
    ]);
    expect(read.totals).toHaveLength(1);
  });

  it.each(['csv', 'json'] as const)('as %s fails once one amount is changed', async (format) => {
    const tampered = Buffer.from((await produce(format)).toString('utf8').replace('9.850000', '9.950000'));
    const result = verdict(tampered);
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ problem: expect.stringContaining('changed after it was signed') });
  });

  it.each(['csv', 'json'] as const)('as %s fails when signed with a key that is not published under its id', async (format) => {
    const impostor = parseSigningKey(newStatementKey('stmt-2').signingKey);
    expect(verdict(await produce(format, impostor))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('does not verify with key stmt-2'),
    });
    const unknown = parseSigningKey(newStatementKey('stmt-9').signingKey);
    expect(verdict(await produce(format, unknown))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('not among the published keys'),
    });
  });

  it('as JSON still verifies after being re-indented (the canonical form is what is hashed)', async () => {
    const pretty = Buffer.from(JSON.stringify(JSON.parse((await produce('json')).toString('utf8')), null, 2));
    expect(verdict(pretty)).toEqual({ ok: true, keyId: 'stmt-2' });
  });

  it('as CSV reads in any CSV reader: the signature is a row of the same columns', async () => {
    const rows = parse(await produce('csv'), { columns: true, bom: true }) as Record<string, string>[];
    expect(rows.map((row) => row['line'])).toEqual(['payment', 'payment', 'total', 'signature']);
    expect(rows[3]!['payment']).toMatch(/^hc-statement-v1;format=csv;key_id=stmt-2;/);
  });
});
