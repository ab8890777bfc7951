import { Decimal } from '@hc/money';
import { formatCoin } from './coins.ts';

/** Outcomes a Test payment can be given (spec, "Simulate a payment"). */
export const SIMULATED_OUTCOMES = ['paid', 'underpaid', 'failed'] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

/** Share of the order's USD value the sandbox delivers: "about 97%" for paid, half for underpaid. */
export const SANDBOX_SHARES: Readonly<Record<Exclude<SimulatedOutcome, 'failed'>, string>> = { paid: '0.97', underpaid: '0.5' };

/** The coin amount the sandbox delivers for an outcome (dollar coins count 1:1 as USD), six decimals. */
export function sandboxValueCoin(usdValue: string, outcome: Exclude<SimulatedOutcome, 'failed'>): string {
  return formatCoin(new Decimal(usdValue).times(SANDBOX_SHARES[outcome]));
}
