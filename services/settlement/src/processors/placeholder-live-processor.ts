import { randomBytes } from 'node:crypto';
import type { SettlementProcessor } from './settlement-processor.ts';

/**
 * PLACEHOLDER for the Live HTTP processor (a later issue): it only makes up a deposit address in the
 * chain's format (0x + 40 hex) so that Live locks have one. No money can reach these addresses; the
 * real processor allocates them on its side and reports arrivals through signed notices.
 */
export class PlaceholderLiveProcessor implements SettlementProcessor {
  async allocateDepositAddress(): Promise<string> {
    return `0x${randomBytes(20).toString('hex')}`;
  }
}
