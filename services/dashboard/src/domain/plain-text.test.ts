import { describe, expect, it } from '@jest/globals';
import { problemIn, textProblem } from './plain-text.ts';

describe('text a browser sends', () => {
  it('refuses a C0 control character or a lone surrogate, as the API does', () => {
    expect(textProblem('ann\u0000@shop.example', 'strict')).toBe('holds the control character U+0000');
    expect(textProblem('a\u001fb', 'line-breaks')).toBe('holds the control character U+001F');
    expect(textProblem('\ud800', 'line-breaks')).toMatch(/lone UTF-16 surrogate/);
    expect(textProblem('line one\nline two', 'strict')).toBe('holds the control character U+000A');
  });

  it('takes tab, line feed and carriage return in a form field, and ordinary text anywhere', () => {
    expect(textProblem('line one\r\n\tline two', 'line-breaks')).toBeUndefined();
    expect(textProblem('Zoë — 0x1111 ✓', 'strict')).toBeUndefined();
  });

  it('looks at every value and name of a parsed query or form', () => {
    expect(problemIn({ actor: 'ann', action: ['a', 'b\u0001'] }, 'strict')).toBe('holds the control character U+0001');
    expect(problemIn({ 'na\u0000me': 'x' }, 'line-breaks')).toBe('holds the control character U+0000');
    expect(problemIn({ note: 'two\nlines' }, 'line-breaks')).toBeUndefined();
    expect(problemIn(undefined, 'strict')).toBeUndefined();
  });
});
