import { Readable, type Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';

/** A plain decimal number (an amount such as -1.00 or 12.5): a spreadsheet reads it as a number, never a formula. */
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;
/**
 * What a spreadsheet may run as a formula (OWASP "CSV Injection"): a cell starting with `=`, `+`, `-`
 * or `@` (or their full-width forms, which some spreadsheets read alike), also after leading
 * whitespace, which spreadsheets trim on import; and one starting with a tab or a carriage return.
 */
const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

/**
 * A cell as it may go into a CSV: text that a spreadsheet would run as a formula gets a `'` in front,
 * so it shows as the text it is (`'=HYPERLINK(…)`); a plain decimal number is left as it is, so
 * amounts — negative ones included — stay numbers a spreadsheet adds up.
 */
export function spreadsheetSafe(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

/**
 * The one CSV writer of the platform (the dashboard's exports and audit log, the operator CLI): rows as
 * CSV (RFC 4180 quoting by csv-stringify, a UTF-8 byte-order mark so spreadsheets read the encoding,
 * a header line) to `out`, every cell made spreadsheet-safe (spreadsheetSafe: whoever typed a value,
 * it never runs as a formula when the file is opened; docs/security.md 47.3), pulling the next row
 * only when `out` takes more: memory holds what is in flight, whatever the number of rows
 * (docs/adr/0057).
 */
export async function writeCsv(rows: AsyncIterable<Record<string, string>>, columns: readonly string[], out: Writable): Promise<void> {
  await pipeline(Readable.from(rows), csvStringifier(columns), out);
}

/** The one CSV form (byte-order mark, header, spreadsheet-safe cells), for a pipeline of one's own. */
export function csvStringifier(columns: readonly string[]): Transform {
  return stringify({ header: true, columns: [...columns], bom: true, cast: { string: (value) => spreadsheetSafe(value) } });
}
