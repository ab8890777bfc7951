import { Decimal, type Currency } from '@hc/money';

/**
 * Card-to-coin providers as data. A provider takes a payment when it supports the currency, the
 * buyer's country and the amount. Best match first: a provider that names the buyer's country
 * (a local specialist) before a global one, then by rank; exactly one is recommended.
 * The default catalogue below is the platform's shipped configuration (docs/providers.md).
 */
export interface ProviderDefinition {
  readonly id: string;
  readonly name: string;
  readonly note: string;
  readonly currencies: readonly Currency[];
  /** Countries served; '*' for all except `excludedCountries`. */
  readonly countries: readonly string[] | '*';
  readonly excludedCountries: readonly string[];
  /** Inclusive range, in the order's currency. */
  readonly minAmount: string;
  readonly maxAmount: string;
  /** Lower is better. */
  readonly rank: number;
  /** {PAYMENT_ID}, {AMOUNT} and {CURRENCY} are filled in. */
  readonly handoffUrlTemplate: string;
}

export interface ProviderOffer {
  readonly id: string;
  readonly name: string;
  readonly note: string;
  readonly recommended: boolean;
  readonly handoffUrl: string;
}

// Sanctioned or unsupported jurisdictions no provider serves.
const BLOCKED = ['CU', 'IR', 'KP', 'SY', 'RU', 'BY'];
const EEA_AND_UK = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'IS',
  'LI',
  'NO',
  'GB',
];

export const DEFAULT_PROVIDERS: readonly ProviderDefinition[] = [
  {
    id: 'cardrail',
    name: 'CardRail',
    note: 'Pay with Visa or Mastercard.',
    currencies: ['USD', 'EUR', 'GBP', 'CAD', 'AUD'],
    countries: '*',
    excludedCountries: BLOCKED,
    minAmount: '1.00',
    maxAmount: '20000.00',
    rank: 1,
    handoffUrlTemplate: 'https://checkout.cardrail.example/buy?ref={PAYMENT_ID}&amount={AMOUNT}&currency={CURRENCY}',
  },
  {
    id: 'walletpay',
    name: 'WalletPay',
    note: 'Apple Pay or Google Pay in two taps.',
    currencies: ['USD', 'EUR', 'GBP', 'CAD', 'AUD'],
    countries: ['US', 'CA', 'AU', ...EEA_AND_UK],
    excludedCountries: [],
    minAmount: '1.00',
    maxAmount: '5000.00',
    rank: 2,
    handoffUrlTemplate: 'https://pay.walletpay.example/session/{PAYMENT_ID}?amount={AMOUNT}&currency={CURRENCY}',
  },
  {
    id: 'eurocard',
    name: 'EuroCard Direct',
    note: 'Cards issued in Europe and the UK, with 3-D Secure.',
    currencies: ['EUR', 'GBP'],
    countries: EEA_AND_UK,
    excludedCountries: [],
    minAmount: '5.00',
    maxAmount: '50000.00',
    rank: 3,
    handoffUrlTemplate: 'https://eurocard-direct.example/pay?order={PAYMENT_ID}&value={AMOUNT}&ccy={CURRENCY}',
  },
  {
    id: 'highline',
    name: 'Highline',
    note: 'Higher limits after a short identity check.',
    currencies: ['USD', 'EUR', 'GBP', 'CAD', 'AUD'],
    countries: '*',
    excludedCountries: BLOCKED,
    minAmount: '50.00',
    maxAmount: '100000.00',
    rank: 4,
    handoffUrlTemplate: 'https://highline.example/checkout/{PAYMENT_ID}?amount={AMOUNT}&currency={CURRENCY}',
  },
];

function serves(provider: ProviderDefinition, country: string | null): boolean {
  if (country !== null && provider.excludedCountries.includes(country)) return false;
  if (provider.countries === '*') return true;
  // Without a country, a regional provider cannot know it may serve the buyer.
  return country !== null && provider.countries.includes(country);
}

export function selectProviders(
  catalogue: readonly ProviderDefinition[],
  payment: { id: string; amount: string; currency: Currency; country: string | null },
): ProviderOffer[] {
  const amount = new Decimal(payment.amount);
  const fitting = catalogue.filter(
    (p) => p.currencies.includes(payment.currency) && serves(p, payment.country) && amount.gte(p.minAmount) && amount.lte(p.maxAmount),
  );
  const local = (p: ProviderDefinition): number => (p.countries !== '*' ? 0 : 1);
  const ordered = [...fitting].sort((a, b) => local(a) - local(b) || a.rank - b.rank || a.id.localeCompare(b.id));
  return ordered.map((p, index) => ({
    id: p.id,
    name: p.name,
    note: p.note,
    recommended: index === 0,
    handoffUrl: p.handoffUrlTemplate
      .replaceAll('{PAYMENT_ID}', encodeURIComponent(payment.id))
      .replaceAll('{AMOUNT}', encodeURIComponent(payment.amount))
      .replaceAll('{CURRENCY}', encodeURIComponent(payment.currency)),
  }));
}

export function findProvider(catalogue: readonly ProviderDefinition[], id: string): ProviderDefinition | undefined {
  return catalogue.find((p) => p.id === id);
}
