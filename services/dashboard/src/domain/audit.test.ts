import { describe, expect, it } from '@jest/globals';
import { auditFilterOf, clip, idShaped, recordableTarget } from './audit.ts';

describe('audit filters', () => {
  it('keeps the filters the log knows and drops the rest', () => {
    expect(auditFilterOf({ action: 'team.', actor: ' Ann@Shop.example ', mode: 'live', outcome: 'refused', before: '42' })).toEqual({
      action: 'team.',
      actor: 'ann@shop.example',
      mode: 'live',
      outcome: 'refused',
      before: '42',
    });
    expect(auditFilterOf({ mode: 'staging', outcome: 'maybe', before: '1; DROP', action: ['a', 'b'] })).toEqual({
      action: undefined,
      actor: undefined,
      mode: undefined,
      outcome: undefined,
      before: undefined,
    });
  });

  it('cuts a long value instead of refusing the entry', () => {
    expect(clip('x'.repeat(600))).toHaveLength(501);
    expect(clip(null)).toBeNull();
  });

  it('keeps any value storable: a control character or a lone surrogate becomes U+FFFD', () => {
    expect(clip('0x11\u0000\u001f\ud800')).toBe('0x11\uFFFD\uFFFD\uFFFD');
  });
});

describe('the object a line names', () => {
  it('is an id or a user’s email address', () => {
    for (const value of ['pay_01J9ZZ7', 'usr_01J9', 'we_ABC', 'key_01', '42', 'ann@shop.example', 'a.b+c@x-y.example'])
      expect({ value, recordable: recordableTarget(value) }).toEqual({ value, recordable: true });
  });

  it('is never what else someone put in an address or a form: a formula, a sentence, a path', () => {
    for (const value of [
      '=HYPERLINK("https://evil.example","x")',
      "+cmd|' /C calc'!A0",
      '-1+1',
      '@SUM(A1)',
      'pay_1/../x',
      'two words',
      '',
      'x'.repeat(300),
      '+a@b.example',
    ])
      expect({ value, recordable: recordableTarget(value), id: idShaped(value) }).toEqual({ value, recordable: false, id: false });
  });
});
