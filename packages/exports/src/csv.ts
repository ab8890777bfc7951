import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';

/**
 * Writes rows as CSV (RFC 4180 quoting by csv-stringify, a UTF-8 byte-order mark so spreadsheets
 * read the encoding, a header line) to `out`, pulling the next row only when `out` takes more: memory
 * holds what is in flight, whatever the number of rows (docs/adr/0057).
 */
export async function writeCsv(rows: AsyncIterable<Record<string, string>>, columns: readonly string[], out: Writable): Promise<void> {
  await pipeline(Readable.from(rows), stringify({ header: true, columns: [...columns], bom: true }), out);
}
