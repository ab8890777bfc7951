/**
 * The one rule for text at the edge (docs/api-errors.md, "Text"). Every string a request carries, in a
 * body field, a metadata key or value, a query parameter or a path id, is refused when it holds a C0
 * control character (U+0000 to U+001F) or a lone UTF-16 surrogate. Both are refused rather than
 * cleaned: PostgreSQL cannot store NUL, and a lone surrogate cannot be encoded as UTF-8, so keeping
 * either would mean storing, returning and signing in webhooks something other than what was sent.
 */

/** Which C0 controls a field accepts: none, or tab, line feed and carriage return (metadata values). */
export type TextRule = 'strict' | 'line-breaks';

const LINE_BREAKS = new Set([0x09, 0x0a, 0x0d]);

/** Why `value` breaks the rule, as a sentence fragment, or undefined when it is fine. */
export function textProblem(value: string, rule: TextRule = 'strict'): string | undefined {
  if (!value.isWellFormed()) return 'contains a lone UTF-16 surrogate (not valid Unicode text)';
  for (let i = 0; i < value.length; i += 1) {
    const unit = value.charCodeAt(i);
    if (unit < 0x20 && !(rule === 'line-breaks' && LINE_BREAKS.has(unit))) {
      return `contains the control character U+${unit.toString(16).toUpperCase().padStart(4, '0')}`;
    }
  }
  return undefined;
}
