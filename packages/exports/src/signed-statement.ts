import { createHash, sign } from 'node:crypto';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { canonicalJson, checkedSeal, csvSignatureRow, sealBytes, STATEMENT_SEAL_VERSION, type StatementSeal } from '@hosted-checkout/sdk';
import { csvStringifier } from './csv.ts';
import { STATEMENT_COLUMNS, type StatementRow } from './statement.ts';
import type { StatementSigner } from './statement-keys.ts';

/** Whose statement, for which days, made when: what the seal names besides the key and the body's hash. */
export interface StatementHeader {
  readonly account: string;
  readonly mode: 'test' | 'live';
  /** YYYY-MM-DD, the first and the last day (UTC, both included). */
  readonly from: string;
  readonly to: string;
  readonly created: Date;
}

/** The seal of a body whose SHA-256 is `sha256`, signed: the seal checked and the signature (base64url). */
function signedSeal(format: 'csv' | 'json', header: StatementHeader, signer: StatementSigner, sha256: string) {
  const seal: StatementSeal = checkedSeal({
    format,
    key_id: signer.keyId,
    account: header.account,
    mode: header.mode,
    from: header.from,
    to: header.to,
    created: header.created.toISOString(),
    sha256,
  });
  return { seal, signature: sign(null, sealBytes(seal), signer.privateKey).toString('base64url') };
}

/**
 * The statement as CSV, signed (docs/verifying-a-statement.md): the CSV exactly as `writeCsv` writes it,
 * hashed as it streams out, then one last row, `signature` and the seal. Memory holds what is in flight.
 */
export async function writeSignedCsv(
  rows: AsyncIterable<StatementRow>,
  header: StatementHeader,
  signer: StatementSigner,
  out: Writable,
): Promise<void> {
  const hash = createHash('sha256');
  const sealing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      const { seal, signature } = signedSeal('csv', header, signer, hash.digest('hex'));
      done(null, csvSignatureRow(seal, signature, STATEMENT_COLUMNS.length));
    },
  });
  await pipeline(Readable.from(rows), csvStringifier(STATEMENT_COLUMNS), sealing, out);
}

/**
 * The statement as JSON, signed: the document is written in canonical form (members sorted, no
 * whitespace: the bytes a verifier recomputes from it) and hashed as it goes — account, created,
 * from, the payment lines, mode, object, to, the totals — and `signature` is added last.
 */
async function* signedJson(rows: AsyncIterable<StatementRow>, header: StatementHeader, signer: StatementSigner): AsyncGenerator<string> {
  const hash = createHash('sha256');
  const hashed = (text: string): string => {
    hash.update(text);
    return text;
  };
  const q = (text: string) => JSON.stringify(text);
  yield hashed(`{"account":${q(header.account)},"created":${q(header.created.toISOString())},"from":${q(header.from)},"lines":[`);
  const totals: StatementRow[] = [];
  let count = 0;
  for await (const row of rows) {
    if (row.line !== 'payment') totals.push(row);
    else yield hashed(`${count++ === 0 ? '' : ','}${canonicalJson(row)}`);
  }
  yield hashed(`],"mode":${q(header.mode)},"object":"statement","to":${q(header.to)},"totals":${canonicalJson(totals)}`);
  // The canonical document closes here; the signature member follows it in the file, outside the hash.
  hash.update('}');
  const { seal, signature } = signedSeal('json', header, signer, hash.digest('hex'));
  yield `,"signature":${canonicalJson({ version: STATEMENT_SEAL_VERSION, alg: 'Ed25519', key_id: seal.key_id, sha256: seal.sha256, value: signature })}}\n`;
}

export async function writeSignedJson(
  rows: AsyncIterable<StatementRow>,
  header: StatementHeader,
  signer: StatementSigner,
  out: Writable,
): Promise<void> {
  await pipeline(Readable.from(signedJson(rows, header, signer)), out);
}
