import { describe, expect, it } from '@jest/globals';
import { countryName, countryOptions, defaultCountry, formatAmount } from './locale.ts';

describe('buyer locale and amounts', () => {
  it('formats the amount in the buyer locale with the currency as set, exactly', () => {
    expect(formatAmount('19.90', 'USD', 'en-US')).toBe('$19.90');
    expect(formatAmount('1234.50', 'EUR', 'de-DE')).toMatch(/^1\.234,50\s€$/u);
    // A decimal string beyond float precision is formatted exactly (no float on the way).
    expect(formatAmount('99999999999999.99', 'USD', 'en-US')).toBe('$99,999,999,999,999.99');
  });

  it('names a country in the buyer language, never its code', () => {
    expect(countryName('DE', 'fr')).toBe('Allemagne');
    expect(countryName('DE', 'ja')).toBe('ドイツ');
    expect(countryName('US', 'ar')).toBe('الولايات المتحدة');
  });
});

describe('defaultCountry', () => {
  it('takes the region of the first language, or the likeliest one', () => {
    expect(defaultCountry(['de-CH', 'de'])).toBe('CH');
    expect(defaultCountry(['de'])).toBe('DE');
    expect(defaultCountry(['ja'])).toBe('JP');
  });

  it('suggests nothing for languages without a country', () => {
    expect(defaultCountry(['*'])).toBeNull();
    expect(defaultCountry([])).toBeNull();
  });
});

describe('countryOptions', () => {
  it('names countries in the buyer language, sorted for it', () => {
    const options = countryOptions('de-DE');
    expect(options.find((o) => o.code === 'DE')?.name).toBe('Deutschland');
    const names = options.map((o) => o.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('de-DE').compare));
  });
});
