import type { Arrival } from '../domain/settlement-checks.ts';
import type { SettlementLock } from '../domain/settlement-lock.ts';
import type { SimulatedOutcome } from '../domain/simulation.ts';

/** What a processor reports about a payment: money arrived (and was forwarded), or the card was declined. */
export type ProcessorReport = { readonly kind: 'arrival'; readonly arrival: Arrival } | { readonly kind: 'declined' };

/**
 * What the processor needs to make a payment's deposit address: the payment and what to keep. Never a
 * wallet: where the money goes is decided when it is forwarded (docs/adr/0081).
 */
export interface AddressRequest {
  readonly paymentId: string;
  readonly feeBps: number;
}

/**
 * A payment processor as settlement sees it. The sandbox implements it for Test mode; the Live HTTP
 * processor (signed inbound notices, scheduled status checks) comes in a later issue and will add its
 * own ways of producing ProcessorReports, which go through the same checks and the same verdict records.
 */
export interface SettlementProcessor {
  /** A one-time deposit address for a payment being locked; null when the processor creates none. */
  allocateDepositAddress(request: AddressRequest): Promise<string | null>;
}

/** A processor that can be told how a Test payment ends. */
export interface SimulatingProcessor extends SettlementProcessor {
  simulate(lock: SettlementLock, outcome: SimulatedOutcome): Promise<ProcessorReport>;
}
