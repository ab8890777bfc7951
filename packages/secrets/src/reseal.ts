/**
 * The re-encryption loop both sealed columns share (webhooks' signing secrets, the dashboard's TOTP
 * seeds): page through the rows not sealed with the current key, in key order, and let the owning
 * store replace each one only while it still holds what was read. The store knows its table; this
 * knows the paging and the report.
 */
import type { SecretBox } from './sealed.ts';

export interface ResealReport {
  /** Rows re-encrypted now (plaintext ones, or ones sealed with an older key). */
  readonly resealed: number;
  /** Values still not sealed with the current key afterwards (0 unless another writer raced). */
  readonly remaining: number;
}

export interface ResealableTable<Row, Cursor> {
  /** The rows after `after` (all when undefined) holding a value whose prefix is not `currentPrefix`, in cursor order. */
  readonly page: (currentPrefix: string, after: Cursor | undefined, limit: number) => Promise<readonly Row[]>;
  readonly cursorOf: (row: Row) => Cursor;
  /** Re-encrypts one row if it still holds what was read; how many rows it replaced (0 or 1). */
  readonly reseal: (row: Row) => Promise<number>;
  /** Values not sealed with `currentPrefix`, counted after the pass. */
  readonly countNotCurrent: (currentPrefix: string) => Promise<number>;
}

/** The prefix every value sealed with the box's current key starts with (`v1:<keyId>:`). */
export function currentKeyPrefix(box: SecretBox): string {
  return `v1:${box.currentKeyId}:`;
}

/** One pass over the table: every value not sealed with the current key is re-encrypted with it. */
export async function resealTable<Row, Cursor>(
  box: SecretBox,
  table: ResealableTable<Row, Cursor>,
  batchSize = 500,
): Promise<ResealReport> {
  const prefix = currentKeyPrefix(box);
  let after: Cursor | undefined;
  let resealed = 0;
  for (;;) {
    const rows = await table.page(prefix, after, batchSize);
    for (const row of rows) resealed += await table.reseal(row);
    if (rows.length < batchSize) break;
    after = table.cursorOf(rows[rows.length - 1]!);
  }
  return { resealed, remaining: await table.countNotCurrent(prefix) };
}
