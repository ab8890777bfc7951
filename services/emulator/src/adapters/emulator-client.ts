import type { EmulatedCoin } from '../domain/ledger.ts';
import type { NoticeMode } from '../domain/notice-body.ts';

export interface PayOptions {
  readonly amount: string;
  readonly coin?: EmulatedCoin | undefined;
  readonly forwardTo?: string | undefined;
  readonly toAddress?: string | undefined;
  readonly reuseTxidOf?: string | undefined;
  readonly notice?: NoticeMode | undefined;
}

/** The emulator's answer to a payment: what happened on chain and how the notice went. */
export interface PayResult {
  readonly payment_id: string;
  readonly deposit_address: string;
  readonly to_address: string;
  readonly txid_in: string;
  readonly coin: EmulatedCoin;
  readonly value_coin: string;
  readonly forwarded_to: string | null;
  readonly txid_out: string | null;
  readonly value_forwarded: string | null;
  readonly notice: { readonly mode: NoticeMode; readonly deliveries: { readonly id: string; readonly status: number | 'scheduled' }[] };
}

export class EmulatorRefusal extends Error {
  override name = 'EmulatorRefusal';
}

/** A buyer pays a Live payment through the emulator (the operator CLI and tests use this). */
export async function payThroughEmulator(emulatorUrl: string, paymentId: string, options: PayOptions): Promise<PayResult> {
  const response = await fetch(`${emulatorUrl.replace(/\/+$/, '')}/emulator/v1/payments/${encodeURIComponent(paymentId)}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: options.amount,
      coin: options.coin,
      forward_to: options.forwardTo,
      to_address: options.toAddress,
      reuse_txid_of: options.reuseTxidOf,
      notice: options.notice,
    }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await response.json()) as PayResult | { error: { message: string } };
  if (!response.ok) throw new EmulatorRefusal('error' in body ? body.error.message : `emulator answered ${response.status}`);
  return body as PayResult;
}
