/**
 * Amounts in the buyer's number format (Intl.NumberFormat, given the decimal string so no float is
 * involved), country names in the buyer's language (Intl.DisplayNames: never a code shown to a buyer),
 * and the country to suggest from Accept-Language. Which locale the page speaks is @hc/i18n's.
 */
/** "de-CH" → CH; "de" → DE (the likeliest region); null when no region follows from the languages. */
export function defaultCountry(languages: readonly string[]): string | null {
  return cached(countriesByLanguages, languages.join(','), () => {
    for (const tag of languages) {
      try {
        const region = new Intl.Locale(tag).maximize().region;
        if (region && /^[A-Z]{2}$/.test(region) && COUNTRY_CODES.includes(region)) return region;
      } catch {
        // Not a language tag.
      }
    }
    return null;
  });
}

/**
 * Built Intl objects are kept per locale (building them costs more than rendering the page), and the
 * country of each Accept-Language seen (Intl's lookups cost more than the rest of a page's
 * domain work); the number of locales is bounded by what Intl supports, and each cache by MAX_CACHED.
 */
const MAX_CACHED = 500;
function cached<T>(cache: Map<string, T>, key: string, build: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = build();
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(key, value);
  }
  return value;
}
const regionNames = new Map<string, Intl.DisplayNames>();
const countriesByLanguages = new Map<string, string | null>();

/** Amounts in the buyer's format: @hc/i18n's, kept here so the pages name one place for Intl. */
export { formatAmount } from '@hc/i18n';

/** "DE" in fr → "Allemagne"; the code itself only if Intl does not know it. */
export function countryName(code: string, locale: string): string {
  const names = cached(regionNames, locale, () => new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' }));
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

export interface CountryOption {
  readonly code: string;
  readonly name: string;
}

/**
 * Every country, named in the buyer's language and sorted for it. Built afresh on each call: the page
 * keeps what it renders from it per locale (api/http/country-options.ts).
 */
export function countryOptions(locale: string): readonly CountryOption[] {
  const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator(locale);
  return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => collator.compare(a.name, b.name));
}

// ISO 3166-1 alpha-2 codes of countries and territories (data; Intl has no list of regions).
const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF ' +
  'CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI ' +
  'GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ ' +
  'LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO ' +
  'NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST ' +
  'SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');
