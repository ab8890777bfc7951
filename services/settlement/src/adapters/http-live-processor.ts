import { ApiError } from '@hc/errors';
import type { AddressRequest, SettlementProcessor } from './settlement-processor.ts';

/** EVM address: 0x and 40 hex digits (any capitalization: the checksum is optional). */
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The Live processor over HTTP (the emulator in services/emulator on one machine). At start it asks
 * for a one-time deposit address bound to the payment and the fee. The payout wallet is not given:
 * the processor asks settlement where to forward when money arrives (`POST /forward-target` on the
 * notices listener, docs/adr/0081), so a wallet changed after the start is the one paid. A processor
 * that does not answer in time, answers with an error or with something that is not an address is
 * `network_unavailable`: the payment is not started and the merchant retries in a minute.
 * What the processor later reports arrives as signed notices (src/notices), not through this class.
 */
export class HttpLiveProcessor implements SettlementProcessor {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(baseUrl: string, timeoutMs: number) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = timeoutMs;
  }

  async allocateDepositAddress(request: AddressRequest): Promise<string> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/v1/deposit-addresses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ payment_id: request.paymentId, fee_bps: request.feeBps }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      // Refused, reset or timed out: the processor did not answer.
      throw new ApiError('network_unavailable');
    }
    const body = (await response.json().catch(() => null)) as { address?: unknown } | null;
    if (!response.ok || typeof body?.address !== 'string' || !ADDRESS.test(body.address)) {
      throw new ApiError('network_unavailable');
    }
    return body.address;
  }
}
