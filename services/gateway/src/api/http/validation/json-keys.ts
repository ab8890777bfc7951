/**
 * Duplicate keys in a JSON text. JSON.parse keeps the last of two equal keys in one object, so
 * `{"amount":"1.00","amount":"99999.00"}` would be read as 99999.00 here while a proxy, a log or the
 * merchant's own code reads 1.00: the body means two things. RFC 8259 only says names SHOULD be
 * unique; we refuse a body whose objects repeat a name (docs/adr/0041).
 *
 * A scan over the text, run after JSON.parse has accepted it (so the text is known to be valid JSON):
 * it only needs to find where strings begin and end, and which strings are an object's names. Names
 * are compared as JSON.parse reads them, so `"a"` and `"\u0061"` are the same name. Iterative: a
 * deeply nested body cannot exhaust the stack.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** The first name repeated within one object of `json` (valid JSON text), or undefined. */
export function firstDuplicateKey(json: string): string | undefined {
  // One entry per open container: the names seen so far in an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let nameNext = false;
  for (let i = 0; i < json.length; i += 1) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(json, i);
      const names = open.at(-1);
      if (nameNext && names) {
        const literal = json.slice(i, end + 1);
        const name = literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1);
        if (names.has(name)) return name;
        names.add(name);
        nameNext = false;
      }
      i = end;
    } else if (c === OPEN_OBJECT) {
      open.push(new Set());
      nameNext = true;
    } else if (c === OPEN_ARRAY) {
      open.push(null);
      nameNext = false;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
      nameNext = false;
    } else if (c === COMMA) {
      nameNext = open.at(-1) != null;
    }
  }
  return undefined;
}

/** Index of the quote that ends the string starting at `start` (an escaped quote does not end it). */
function closingQuote(json: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const c = json.charCodeAt(i);
    if (c === BACKSLASH) i += 2;
    else if (c === QUOTE || Number.isNaN(c)) return i;
    else i += 1;
  }
}
