/**
 * The dashboard's rule for text a browser sends, the API's rule (docs/api-errors.md, "Text"): no C0
 * control character (U+0000 to U+001F) and no lone UTF-16 surrogate, in an address, a query value or
 * a form field; a form field may hold tab, line feed and carriage return (a note typed on several
 * lines). Refused, never cleaned: PostgreSQL cannot store NUL, and a value kept other than as it was
 * sent would be searched, stored or logged as something nobody typed (docs/security.md 47.4).
 */
export type TextRule = 'strict' | 'line-breaks';

const LINE_BREAKS = new Set([0x09, 0x0a, 0x0d]);

/** Why `value` breaks the rule, as a sentence fragment, or undefined when it is fine. */
export function textProblem(value: string, rule: TextRule): string | undefined {
  if (!value.isWellFormed()) return 'holds a lone UTF-16 surrogate (not valid Unicode text)';
  for (let i = 0; i < value.length; i += 1) {
    const unit = value.charCodeAt(i);
    if (unit < 0x20 && !(rule === 'line-breaks' && LINE_BREAKS.has(unit))) {
      return `holds the control character U+${unit.toString(16).toUpperCase().padStart(4, '0')}`;
    }
  }
  return undefined;
}

/** The first problem among every string of a parsed query or form (strings, arrays, nested objects). */
export function problemIn(values: unknown, rule: TextRule): string | undefined {
  if (typeof values === 'string') return textProblem(values, rule);
  if (Array.isArray(values)) {
    for (const value of values) {
      const problem = problemIn(value, rule);
      if (problem) return problem;
    }
    return undefined;
  }
  if (values !== null && typeof values === 'object') {
    for (const [name, value] of Object.entries(values)) {
      const problem = textProblem(name, 'strict') ?? problemIn(value, rule);
      if (problem) return problem;
    }
  }
  return undefined;
}
