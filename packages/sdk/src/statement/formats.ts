import { parse } from 'csv-parse/sync';
import {
  canonicalJson,
  checkedSeal,
  SEAL_FIELDS,
  sha256Hex,
  STATEMENT_SEAL_VERSION,
  StatementFormatError,
  type StatementSeal,
} from './seal.ts';

/** One row of a statement as its file has it: a paid payment's line or a total, every value a string. */
export type StatementRecord = Readonly<Record<string, string>>;

/** A statement read from its file, before anything is verified. */
export interface ReadStatement {
  readonly format: 'csv' | 'json';
  /** The seal as the file claims it, except `sha256`, which is computed from the body read. */
  readonly seal: StatementSeal;
  /** The `sha256` the file claims: differs from `seal.sha256` when the body was changed after signing. */
  readonly claimedSha256: string;
  /** The Ed25519 signature, base64url. */
  readonly signature: string;
  readonly lines: readonly StatementRecord[];
  readonly totals: readonly StatementRecord[];
}

/** The CSV's last row: `signature` in the first column, the seal and the signature in the second. */
export function csvSignatureRow(seal: StatementSeal, signature: string, columns: number): string {
  const cell = [STATEMENT_SEAL_VERSION, ...SEAL_FIELDS.map((name) => `${name}=${seal[name]}`), `signature=${signature}`].join(';');
  return `signature,${cell}${','.repeat(Math.max(columns - 2, 0))}\n`;
}

function sealCell(cell: string): { fields: Record<string, string>; signature: string } {
  const [version, ...pairs] = cell.split(';');
  if (version !== STATEMENT_SEAL_VERSION) throw new StatementFormatError(`the signature row is not ${STATEMENT_SEAL_VERSION}`);
  const fields: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at > 0) fields[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const signature = fields['signature'];
  if (!signature) throw new StatementFormatError('the signature row has no signature');
  return { fields, signature };
}

const split = (records: StatementRecord[]) => ({
  lines: records.filter((r) => r['line'] === 'payment'),
  totals: records.filter((r) => r['line'] === 'total'),
});

/** A signed CSV statement: the body is every byte up to the last row, which must be the signature row. */
export function readCsvStatement(bytes: Uint8Array): ReadStatement {
  const file = Buffer.from(bytes);
  const end = file.length > 0 && file[file.length - 1] === 0x0a ? file.length - 1 : file.length;
  const lastLine = file.lastIndexOf(0x0a, end - 1) + 1;
  const trailer = file.subarray(lastLine, end).toString('utf8').replace(/\r$/, '');
  if (!trailer.startsWith('signature,'))
    throw new StatementFormatError('the CSV does not end with a signature row: is it a signed statement?');
  const { fields, signature } = sealCell(trailer.slice('signature,'.length).split(',')[0] ?? '');
  const body = file.subarray(0, lastLine);
  const seal = checkedSeal({ ...fields, format: 'csv', sha256: sha256Hex(body) });
  const records = parse(body, { columns: true, bom: true, skip_empty_lines: true }) as StatementRecord[];
  return { format: 'csv', seal, claimedSha256: fields['sha256'] ?? '', signature, ...split(records) };
}

function strings(value: unknown, what: string): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new StatementFormatError(`${what} is not an object`);
  for (const [key, item] of Object.entries(value))
    if (typeof item !== 'string') throw new StatementFormatError(`${what}.${key} is not a string`);
  return value as Record<string, string>;
}

function records(value: unknown, what: string): StatementRecord[] {
  if (!Array.isArray(value)) throw new StatementFormatError(`${what} is not a list`);
  return value.map((item, index) => strings(item, `${what}[${index}]`));
}

/** A signed JSON statement: the body is the canonical form of the document without `signature`. */
export function readJsonStatement(bytes: Uint8Array): ReadStatement {
  let document: unknown;
  try {
    document = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw new StatementFormatError('the file is not JSON');
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new StatementFormatError('the JSON is not an object');
  const { signature: signed, ...rest } = document as Record<string, unknown>;
  const signature = strings(signed, 'signature');
  if (signature['version'] !== STATEMENT_SEAL_VERSION) throw new StatementFormatError(`the signature is not ${STATEMENT_SEAL_VERSION}`);
  const top = rest as Record<string, unknown>;
  const meta = (name: string) => (typeof top[name] === 'string' ? (top[name] as string) : undefined);
  const seal = checkedSeal({
    format: 'json',
    key_id: signature['key_id'],
    account: meta('account'),
    mode: meta('mode'),
    from: meta('from'),
    to: meta('to'),
    created: meta('created'),
    sha256: sha256Hex(canonicalJson(rest)),
  });
  const value = signature['value'];
  if (!value) throw new StatementFormatError('the signature has no value');
  return {
    format: 'json',
    seal,
    claimedSha256: signature['sha256'] ?? '',
    signature: value,
    lines: records(top['lines'], 'lines'),
    totals: records(top['totals'], 'totals'),
  };
}

/** Either format, told apart by the first character that is not whitespace or a byte-order mark. */
export function readStatement(bytes: Uint8Array): ReadStatement {
  const start = Buffer.from(bytes)
    .toString('utf8', 0, Math.min(bytes.length, 64))
    .replace(/^[\uFEFF\s]+/, '');
  return start.startsWith('{') ? readJsonStatement(bytes) : readCsvStatement(bytes);
}
