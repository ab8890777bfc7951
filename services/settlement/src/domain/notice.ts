import { parseCoinAmount } from './coins.ts';
import type { Arrival } from './settlement-checks.ts';

/** A processor notice whose signature was verified (docs/adr/0016): money arrived and was forwarded. */
export interface ProcessorNotice {
  /** `webhook-id`: the processor's id for this notice, the same on every redelivery. */
  readonly id: string;
  readonly paymentId: string;
  readonly arrival: Arrival;
  /** What the processor says it forwarded (recorded on the timeline; settlement computes merchant_received itself). */
  readonly valueForwarded: string | null;
}

function text(body: Record<string, unknown>, name: string, optional: boolean): string | null {
  const value = body[name];
  if ((value === null || value === undefined) && optional) return null;
  if (typeof value !== 'string' || value === '' || value.length > 200) throw new Error(`${name} must be a non-empty string`);
  return value;
}

/** The notice's JSON body, checked field by field; throws with the first problem. */
export function parseNotice(id: string, body: unknown): ProcessorNotice {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('the body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (b['type'] !== 'transfer.forwarded') throw new Error('type must be transfer.forwarded');
  const valueCoin = text(b, 'value_coin', false)!;
  if (!parseCoinAmount(valueCoin)) throw new Error('value_coin must be a plain decimal string');
  const valueForwarded = text(b, 'value_forwarded', true);
  if (valueForwarded !== null && !parseCoinAmount(valueForwarded)) throw new Error('value_forwarded must be a plain decimal string');
  return {
    id,
    paymentId: text(b, 'payment_id', false)!,
    arrival: {
      txidIn: text(b, 'txid_in', false)!,
      coin: text(b, 'coin', false)!,
      valueCoin,
      toAddress: text(b, 'deposit_address', false),
      forwardedTo: text(b, 'forwarded_to', true),
      txidOut: text(b, 'txid_out', true),
    },
    valueForwarded,
  };
}

/**
 * Where a notice disagrees with the transfer the scheduled chain check confirmed the payment on
 * (coin, amount and transaction): each difference in plain words, empty when they agree.
 */
export function differencesFromConfirmed(confirmed: Arrival, notice: Arrival): string[] {
  const differences: string[] = [];
  if (confirmed.txidIn.toLowerCase() !== notice.txidIn.toLowerCase())
    differences.push(`the notice reports transaction ${notice.txidIn}, the chain showed ${confirmed.txidIn}`);
  if (confirmed.coin !== notice.coin) differences.push(`the notice reports ${notice.coin}, the chain showed ${confirmed.coin}`);
  const a = parseCoinAmount(confirmed.valueCoin);
  const b = parseCoinAmount(notice.valueCoin);
  if (!a || !b || !a.eq(b)) differences.push(`the notice reports ${notice.valueCoin} arrived, the chain showed ${confirmed.valueCoin}`);
  return differences;
}
