import { createHash } from 'node:crypto';

/**
 * The signed form of a settlement statement, version 1 (docs/verifying-a-statement.md, docs/adr/0088).
 * Both formats are signed the same way: Ed25519 over the seal's bytes — the version line, then each
 * field as `name=value` on a line of its own in this order — whose `sha256` is the SHA-256 of the
 * statement's body (CSV: every byte before the signature row; JSON: the canonical form of the
 * document without its `signature` member). Hashing first lets the platform stream a statement of
 * any length (SSHSIG and minisign sign a digest for the same reason).
 */
export const STATEMENT_SEAL_VERSION = 'hc-statement-v1';
export const SEAL_FIELDS = ['format', 'key_id', 'account', 'mode', 'from', 'to', 'created', 'sha256'] as const;
export type SealField = (typeof SEAL_FIELDS)[number];
export type StatementSeal = Readonly<Record<SealField, string>>;
export type StatementFormat = 'csv' | 'json';

/** Seal values never need quoting or escaping in either format: ids, dates, hex, base64url. */
const SEAL_VALUE = /^[A-Za-z0-9_.:+-]{1,128}$/;

/** A statement that cannot even be read as one (as opposed to one whose signature is wrong). */
export class StatementFormatError extends Error {
  override readonly name = 'StatementFormatError';
}

/** The seal's fields checked: every one present, each a plain value (never a separator or a newline). */
export function checkedSeal(fields: Readonly<Record<string, string | undefined>>): StatementSeal {
  const seal: Partial<Record<SealField, string>> = {};
  for (const name of SEAL_FIELDS) {
    const value = fields[name];
    if (value === undefined || !SEAL_VALUE.test(value))
      throw new StatementFormatError(`the signature's ${name} is missing or not a plain value`);
    seal[name] = value;
  }
  if (seal.format !== 'csv' && seal.format !== 'json') throw new StatementFormatError(`unknown statement format ${seal.format}`);
  return seal as StatementSeal;
}

/** Exactly the bytes the platform signs and a verifier checks. */
export function sealBytes(seal: StatementSeal): Buffer {
  return Buffer.from(`${STATEMENT_SEAL_VERSION}\n${SEAL_FIELDS.map((name) => `${name}=${seal[name]}\n`).join('')}`, 'utf8');
}

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * JSON in canonical form (RFC 8785, JCS, for documents made of strings, arrays and objects only):
 * members sorted by key in UTF-16 code units, no whitespace, strings escaped as JSON.stringify does.
 * Numbers, booleans and null are refused: a statement has none (amounts are decimal strings), and
 * leaving them out removes the one part of JCS that differs between implementations.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value).sort();
    return `{${entries.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  throw new StatementFormatError(`a statement holds strings only, not ${value === null ? 'null' : typeof value}`);
}
