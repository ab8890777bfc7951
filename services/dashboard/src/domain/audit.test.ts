import { describe, expect, it } from '@jest/globals';
import { auditFilterOf, clip } from './audit.ts';

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
});
