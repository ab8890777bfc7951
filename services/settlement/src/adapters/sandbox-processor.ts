import { randomBytes } from 'node:crypto';
import type { DollarCoin } from '../domain/coins.ts';
import type { SettlementLock } from '../domain/settlement-lock.ts';
import { sandboxValueCoin, type SimulatedOutcome } from '../domain/simulation.ts';
import type { ProcessorReport, SimulatingProcessor } from './settlement-processor.ts';

/** A random transaction hash in the chain's format (0x + 64 hex), so it never collides with a real one we saw. */
function randomTxid(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}

/**
 * Test mode's processor: no real deposit address, and arrivals made up on request — the coin chosen
 * by SANDBOX_COIN, forwarded to the lock's payout wallet, so that the settlement checks pass or fail
 * only on the amount the outcome asks for.
 */
export class SandboxProcessor implements SimulatingProcessor {
  private readonly coin: DollarCoin;

  constructor(coin: DollarCoin) {
    this.coin = coin;
  }

  async allocateDepositAddress(): Promise<null> {
    return null;
  }

  async simulate(lock: SettlementLock, outcome: SimulatedOutcome): Promise<ProcessorReport> {
    if (outcome === 'failed') return { kind: 'declined' };
    return {
      kind: 'arrival',
      arrival: {
        txidIn: randomTxid(),
        coin: this.coin,
        valueCoin: sandboxValueCoin(lock.usdValue, outcome),
        toAddress: lock.depositAddress,
        forwardedTo: lock.payoutWallet,
        txidOut: randomTxid(),
      },
    };
  }
}
