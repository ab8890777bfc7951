import { describe, expect, it } from '@jest/globals';
import { accentRefusal, contrastWithWhite, normalizedHex, passingShade, shownRatio } from './brand.ts';

describe('accent colour rules (WCAG AA against white)', () => {
  it('reads #rgb and #rrggbb in any case as lower-case #rrggbb, and nothing else', () => {
    expect(normalizedHex('#0A58CA')).toBe('#0a58ca');
    expect(normalizedHex('#abc')).toBe('#aabbcc');
    for (const bad of ['0a58ca', '#0a58c', 'red', '#0a58cag', 'rgb(0,0,0)', '']) expect(normalizedHex(bad)).toBeNull();
  });

  it('computes the WCAG ratio: black 21:1, white 1:1, #767676 just passes, #777777 just fails', () => {
    expect(contrastWithWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5);
    expect(contrastWithWhite('#767676')).toBeGreaterThanOrEqual(4.5);
    expect(contrastWithWhite('#777777')).toBeLessThan(4.5);
  });

  it('never rounds a failing ratio up to 4.50 in its message', () => {
    expect(shownRatio(4.4999)).toBe('4.49');
    expect(accentRefusal('#777777')).toContain('4.47:1');
  });

  it('refuses an orange that fails, naming its ratio and a darker shade that passes', () => {
    const refusal = accentRefusal('#ff7700');
    expect(refusal).toContain('2.');
    const shade = /(#[0-9a-f]{6}) is the nearest/.exec(refusal!)![1]!;
    expect(shade).toBe(passingShade('#ff7700'));
    expect(contrastWithWhite(shade)).toBeGreaterThanOrEqual(4.5);
    expect(accentRefusal(shade)).toBeNull();
  });

  it('accepts a colour that passes as it is', () => {
    expect(accentRefusal('#0a58ca')).toBeNull();
  });
});
