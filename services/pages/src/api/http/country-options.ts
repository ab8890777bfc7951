import nunjucks from 'nunjucks';
import { countryOptions } from '../../domain/locale.ts';
import { keptRenders } from './kept-renders.ts';

/** Locales whose list is kept (each list is about 8 kB). */
const MAX_CACHED_LOCALES = 100;

/**
 * The details form's country `<option>`s, as a template global: `{{ countryOptions(locale, form.country) }}`.
 *
 * The list (about 250 countries, named and sorted in the buyer's language) is rendered once per locale
 * by `_country-options.njk`, escaped by the same autoescape as every page, and kept. Looping over it
 * in the page itself took about a fifth of a page view's CPU (docs/performance.md, issue 33 fifth
 * step). The buyer's country is then marked by finding its option: a value that is not a listed code
 * (a form can send anything) marks none, as the template's comparison did.
 */
export function countryOptionsGlobal(env: nunjucks.Environment): (locale: string, selected: unknown) => nunjucks.runtime.SafeString {
  const rendered = keptRenders(MAX_CACHED_LOCALES);
  return (locale, selected) => {
    const html = rendered.render(locale, () => env.render('_country-options.njk', { countries: countryOptions(locale) }));
    const option = typeof selected === 'string' && /^[A-Z]{2}$/.test(selected) ? `<option value="${selected}">` : undefined;
    const marked = option && html.includes(option) ? html.replace(option, `<option value="${selected as string}" selected>`) : html;
    return new nunjucks.runtime.SafeString(marked);
  };
}
