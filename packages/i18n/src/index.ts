export { DEFAULT_LOCALE, LOCALES, localeNames, negotiateLocale, supportedLocale, textDirection, type Locale } from './locales.ts';
export { MISSING_MARK, escapeHtml, messagesOf, type Catalogue, type MessageValues, type Messages } from './messages.ts';
export { argumentsOf, catalogueDirectory, catalogueProblems, readCatalogue } from './catalogues.ts';
export { formatAmount } from './amounts.ts';
