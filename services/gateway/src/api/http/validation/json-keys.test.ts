import { describe, expect, it } from '@jest/globals';
import { firstDuplicateKey } from './json-keys.ts';

describe('firstDuplicateKey', () => {
  it.each([
    ['top level', '{"amount":"1.00","currency":"usd","amount":"99999.00"}', 'amount'],
    ['nested object', '{"customer":{"name":"Ann","name":"Bob"}}', 'name'],
    ['object inside an array', '{"a":[1,{"k":1,"k":2}]}', 'k'],
    ['same name written with an escape', '{"amount":"1.00","\\u0061mount":"2.00"}', 'amount'],
    ['escaped quote inside the name', '{"a\\"b":1,"a\\"b":2}', 'a"b'],
    ['__proto__ twice', '{"__proto__":1,"__proto__":2}', '__proto__'],
    ['after a nested object closes', '{"a":{"x":1},"b":[],"a":2}', 'a'],
    ['whitespace between tokens', '{ "a" : 1 ,\n "a" : 2 }', 'a'],
    ['empty name twice', '{"":1,"":2}', ''],
  ])('finds a repeated name: %s', (_label, json, name) => {
    expect(firstDuplicateKey(json)).toBe(name);
  });

  it.each([
    ['distinct names', '{"amount":"1.00","currency":"usd"}'],
    ['the same name in two different objects', '{"amount":"1.00","metadata":{"amount":"x"},"customer":{"amount":1}}'],
    ['a value equal to a name', '{"a":"a","b":"a"}'],
    ['names only in sibling array elements', '[{"a":1},{"a":2}]'],
    ['braces, commas and quotes inside strings', '{"a":"{\\"a\\":1,","b":"}],[{","c":"\\\\"}'],
    ['names differing only in case', '{"Amount":1,"amount":2}'],
    ['not an object at all', '"a"'],
    ['empty object and array', '{"a":{},"b":[]}'],
  ])('accepts %s', (_label, json) => {
    expect(JSON.parse(json)).toBeDefined();
    expect(firstDuplicateKey(json)).toBeUndefined();
  });

  it('walks a deeply nested text without recursion', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(firstDuplicateKey(deep)).toBeUndefined();
    expect(firstDuplicateKey(`${'{"a":'.repeat(50_000)}{"b":1,"b":2}${'}'.repeat(50_000)}`)).toBe('b');
  });
});
