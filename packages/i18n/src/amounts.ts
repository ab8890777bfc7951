/**
 * "19.90" USD in de → "19,90 $": Intl formats the decimal string exactly (no float on the way). The
 * formats are kept per locale and currency (building one costs more than a page's other work).
 */
export function formatAmount(amount: string, currency: string, locale: string): string {
  const key = `${locale} ${currency}`;
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    if (formats.size >= MAX_CACHED) formats.clear();
    formats.set(key, format);
  }
  // Intl.NumberFormat takes a decimal string as an exact decimal (ES2023); its types say number only.
  return format.format(amount as unknown as number);
}

const MAX_CACHED = 500;
const formats = new Map<string, Intl.NumberFormat>();
