import { describe, expect, it } from '@jest/globals';
import { parseEncryptionKeys } from './keyring.ts';
import { currentKeyPrefix, resealTable } from './reseal.ts';
import { SecretBox } from './sealed.ts';

const K1 = `k1:${Buffer.alloc(32, 1).toString('base64')}`;
const K2 = `k2:${Buffer.alloc(32, 2).toString('base64')}`;
const context = (id: number) => ({ table: 't', column: 'c', row: String(id) });

/** An in-memory table of sealed values, paged by id as the stores page theirs. */
function table(values: Map<number, string>, box: SecretBox) {
  const notCurrent = (prefix: string) => [...values].filter(([, value]) => !value.startsWith(prefix)).sort(([a], [b]) => a - b);
  return {
    page: async (prefix: string, after: number | undefined, limit: number) =>
      notCurrent(prefix)
        .filter(([id]) => id > (after ?? -1))
        .slice(0, limit)
        .map(([id, value]) => ({ id, value })),
    cursorOf: (row: { id: number }) => row.id,
    reseal: async (row: { id: number; value: string }) => {
      const sealed = box.resealed(row.value, context(row.id), (value) => value.startsWith('plain-'));
      if (sealed === null || values.get(row.id) !== row.value) return 0;
      values.set(row.id, sealed);
      return 1;
    },
    countNotCurrent: async (prefix: string) => notCurrent(prefix).length,
  };
}

describe('resealTable', () => {
  it('re-encrypts every old-key and plaintext value across page boundaries, and opens them after', async () => {
    const old = new SecretBox(parseEncryptionKeys(K1));
    const values = new Map<number, string>();
    for (let id = 1; id <= 7; id += 1) values.set(id, id % 2 === 0 ? `plain-${id}` : old.seal(`secret-${id}`, context(id)));
    const rotated = new SecretBox(parseEncryptionKeys(`${K2},${K1}`));

    const report = await resealTable(rotated, table(values, rotated), 3);

    expect(report).toEqual({ resealed: 7, remaining: 0 });
    expect([...values.values()].every((value) => value.startsWith(currentKeyPrefix(rotated)))).toBe(true);
    expect(rotated.open(values.get(1)!, context(1))).toBe('secret-1');
    expect(rotated.open(values.get(2)!, context(2))).toBe('plain-2');
    expect(await resealTable(rotated, table(values, rotated), 3)).toEqual({ resealed: 0, remaining: 0 });
  });
});
