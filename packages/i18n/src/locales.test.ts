import { negotiateLocale, supportedLocale, textDirection, localeNames } from './locales.ts';
import { argumentsOf } from './catalogues.ts';
import { messagesOf, MISSING_MARK } from './messages.ts';

describe('negotiateLocale', () => {
  it.each([
    [['de-AT', 'en'], 'de'],
    [['pt'], 'pt-BR'],
    [['pt-PT'], 'pt-BR'],
    [['ar-EG'], 'ar'],
    [['zh-CN', 'fr-CA'], 'fr'],
    [['zh-CN'], 'en'],
    [['*'], 'en'],
    [['not a tag', 'ja-JP'], 'ja'],
    [[], 'en'],
  ])('%j → %s', (languages, locale) => {
    expect(negotiateLocale(languages)).toBe(locale);
  });
});

describe('supportedLocale', () => {
  it('takes the listed tags in any case and nothing else', () => {
    expect(supportedLocale('pt-br')).toBe('pt-BR');
    expect(supportedLocale('DE')).toBe('de');
    expect(supportedLocale('de-AT')).toBeNull();
    expect(supportedLocale('xx')).toBeNull();
    expect(supportedLocale(3)).toBeNull();
  });
});

describe('messages', () => {
  it('formats plurals, dates and tags, escaping values', () => {
    const m = messagesOf('pl', {
      count: '{n, plural, one {# dostawca} few {# dostawcy} many {# dostawców} other {# dostawcy}}',
      when: '{at, date, utc}',
      bold: '<strong>{name}</strong> zapłacił',
    });
    expect(m.text('count', { n: 3 })).toBe('3 dostawcy');
    expect(m.text('when', { at: new Date(Date.UTC(2026, 10, 25, 1, 25)) })).toContain('2026');
    expect(m.html('bold', { name: '<script>' })).toBe('<strong>&#60;script&#62;</strong> zapłacił');
    expect(m.text('nope')).toBe(`${MISSING_MARK}nope`);
  });

  it('names the arguments a message takes', () => {
    expect(argumentsOf('{n, plural, one {# x {who}} other {#}} <strong>{a}</strong>')).toBe('a:argument,n:plural,strong:tag,who:argument');
  });

  it('knows the right-to-left locale and names each locale in itself', () => {
    expect(textDirection('ar')).toBe('rtl');
    expect(textDirection('de')).toBe('ltr');
    expect(localeNames().find((l) => l.locale === 'de')?.name).toBe('Deutsch');
  });
});
