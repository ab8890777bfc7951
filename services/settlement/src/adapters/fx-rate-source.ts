import { CURRENCIES, Decimal, type Currency } from '@hc/money';
import { parseFxTable, type FxTable } from '../domain/fx.ts';

/** Where USD rates come from. The configured table is the only source today; a live feed can plug in here. */
export interface FxRateSource {
  /** Recorded with every lock next to the rate, so a rate can be traced to where it came from. */
  readonly name: string;
  /** USD per unit of `currency`, positive. */
  usdRate(currency: Currency): Promise<Decimal>;
}

/** Rates from configuration (FX_RATES_USD), fixed for the life of the process. */
export class ConfiguredFxRates implements FxRateSource {
  readonly name = 'configured:FX_RATES_USD';
  private readonly rates: ReadonlyMap<Currency, Decimal>;

  constructor(table: FxTable) {
    // Re-validated here too: tests and other callers build the table without going through config.
    const checked = parseFxTable(JSON.stringify(table));
    this.rates = new Map(CURRENCIES.map((c) => [c, new Decimal(checked[c])]));
  }

  async usdRate(currency: Currency): Promise<Decimal> {
    const rate = this.rates.get(currency);
    if (!rate) throw new Error(`no USD rate for ${currency}`);
    return rate;
  }
}
