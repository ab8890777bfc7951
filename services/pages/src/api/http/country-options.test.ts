import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import nunjucks from 'nunjucks';
import { countryOptions } from '../../domain/locale.ts';
import { countryOptionsGlobal } from './country-options.ts';

const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(join(import.meta.dirname, '..', '..', '..', 'views')), {
  autoescape: true,
});

/** The loop the details page ran before the list was kept per locale: the new global must equal it. */
const LOOP_IN_THE_PAGE =
  '{% for c in countries %}<option value="{{ c.code }}"{% if c.code == selected %} selected{% endif %}>{{ c.name }}</option>{% endfor %}';

describe('countryOptionsGlobal', () => {
  const options = countryOptionsGlobal(env);

  it.each([
    ['en-US', 'US'],
    ['de-DE', 'DE'],
    ['fr-CH', 'CH'],
    ['ja-JP', null],
    ['en-US', 'ZZ'],
    ['en-US', 'us'],
    ['en-US', '"><script>alert(1)</script>'],
    ['de-DE', ''],
  ])('renders exactly what the loop in the page rendered (%s, selected %j)', (locale, selected) => {
    const expected = env.renderString(LOOP_IN_THE_PAGE, { countries: countryOptions(locale), selected });
    expect(options(locale, selected).toString()).toBe(expected);
  });

  it('marks one option at most, and only a listed code', () => {
    expect(
      options('de-DE', 'DE')
        .toString()
        .match(/ selected/g),
    ).toHaveLength(1);
    expect(options('de-DE', 'DE').toString()).toContain('<option value="DE" selected>Deutschland</option>');
    expect(options('de-DE', 'QQ').toString()).not.toContain('selected');
    expect(options('de-DE', undefined).toString()).not.toContain('selected');
  });

  it('keeps the list of a locale without marking it for the next page', () => {
    expect(options('en-US', 'FR').toString()).toContain('<option value="FR" selected>');
    expect(options('en-US', 'GB').toString()).not.toContain('<option value="FR" selected>');
  });

  it('escapes codes and names like every value of a page', () => {
    const html = env.render('_country-options.njk', { countries: [{ code: 'X"Y', name: '<b>Tom & Jerry</b>' }] });
    expect(html).toBe('<option value="X&quot;Y">&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;</option>');
  });
});
