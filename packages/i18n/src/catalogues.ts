import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { DEFAULT_LOCALE, LOCALES, type Locale } from './locales.ts';
import { messagesOf, type Catalogue, type Messages } from './messages.ts';

/**
 * A service's catalogues: `<dir>/<locale>.json`, one flat object of key → ICU message. A locale's file
 * is read when a buyer first needs it and kept; a page only ever formats with its buyer's one.
 */
export function catalogueDirectory(dir: string): (locale: Locale) => Messages {
  const loaded = new Map<Locale, Messages>();
  return (locale) => {
    let messages = loaded.get(locale);
    if (messages === undefined) {
      messages = messagesOf(locale, readCatalogue(dir, locale));
      loaded.set(locale, messages);
    }
    return messages;
  };
}

export function readCatalogue(dir: string, locale: Locale): Catalogue {
  const parsed: unknown = JSON.parse(readFileSync(join(dir, `${locale}.json`), 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${dir}/${locale}.json: not an object`);
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') throw new Error(`${dir}/${locale}.json: ${key} is not a string`);
  }
  return parsed as Catalogue;
}

/**
 * What is wrong with a service's catalogues, as lines (empty when all is well): a key English has that
 * a locale lacks or the other way round, a message that does not parse, and a message whose arguments
 * (names and kinds: plain, number, date, plural, select, tag) differ from English's.
 */
export function catalogueProblems(dir: string): string[] {
  const english = readCatalogue(dir, DEFAULT_LOCALE);
  const englishArgs = new Map(Object.entries(english).map(([key, text]) => [key, argumentsOf(text)]));
  const problems: string[] = [];
  for (const locale of LOCALES) {
    const catalogue = readCatalogue(dir, locale);
    for (const key of Object.keys(english)) if (!(key in catalogue)) problems.push(`${locale}: ${key} is missing`);
    for (const [key, text] of Object.entries(catalogue)) {
      if (!(key in english)) {
        problems.push(`${locale}: ${key} is not in ${DEFAULT_LOCALE}`);
        continue;
      }
      let args: string;
      try {
        args = argumentsOf(text);
      } catch (error) {
        problems.push(`${locale}: ${key} does not parse (${(error as Error).message})`);
        continue;
      }
      if (args !== englishArgs.get(key))
        problems.push(`${locale}: ${key} takes ${args || 'nothing'}, ${DEFAULT_LOCALE} ${englishArgs.get(key) || 'nothing'}`);
    }
  }
  return problems;
}

/** "amount:argument,count:plural,strong:tag": the sorted arguments a message takes. */
export function argumentsOf(text: string): string {
  const found = new Set<string>();
  collect(parse(text), found);
  return [...found].sort().join(',');
}

const KINDS: Partial<Record<TYPE, string>> = {
  [TYPE.argument]: 'argument',
  [TYPE.number]: 'number',
  [TYPE.date]: 'date',
  [TYPE.time]: 'time',
  [TYPE.select]: 'select',
  [TYPE.plural]: 'plural',
  [TYPE.tag]: 'tag',
};

function collect(elements: readonly MessageFormatElement[], found: Set<string>): void {
  for (const element of elements) {
    const kind = KINDS[element.type];
    if (kind && 'value' in element && typeof element.value === 'string') found.add(`${element.value}:${kind}`);
    if (element.type === TYPE.tag) collect(element.children, found);
    if (element.type === TYPE.select || element.type === TYPE.plural) {
      for (const option of Object.values(element.options)) collect(option.value, found);
    }
  }
}
