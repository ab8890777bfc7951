import { Decimal } from '@hc/money';
import { DOLLAR_COINS, formatCoin, isDollarCoin, merchantShare, parseCoinAmount } from './coins.ts';
import type { SettlementLock } from './settlement-lock.ts';

/** Money that reached (or claims to have reached) a payment's deposit address, as a processor reports it. */
export interface Arrival {
  /** Blockchain transaction that delivered the money. */
  readonly txidIn: string;
  readonly coin: string;
  /** Decimal string in `coin`, before fees. */
  readonly valueCoin: string;
  /** Where it arrived; null for sandbox arrivals, which have no real address. */
  readonly toAddress: string | null;
  /** Wallet it was forwarded to, and the transaction that forwarded it. */
  readonly forwardedTo: string | null;
  readonly txidOut: string | null;
}

/** Facts about an arrival that only the database knows. */
export interface ArrivalEvidence {
  /** The transaction was already recorded, for this or another payment. */
  readonly txidUsedBefore: boolean;
}

/** What moved, as the payment's `settlement` object shows it. */
export interface SettlementDetails {
  readonly coin: string | null;
  readonly valueCoin: string | null;
  readonly merchantReceived: string | null;
  readonly txidIn: string | null;
  readonly txidOut: string | null;
  readonly payoutWallet: string | null;
}

export type Decision =
  | { readonly kind: 'paid'; readonly settlement: SettlementDetails }
  | { readonly kind: 'held'; readonly holdReason: string; readonly holdAcceptable: boolean; readonly settlement: SettlementDetails }
  | { readonly kind: 'failed' };

/** Arrivals below this share of the order's USD value are held (spec, Limits: "Hold threshold"). */
export const HOLD_THRESHOLD = new Decimal('0.9');

type LockFacts = Pick<SettlementLock, 'depositAddress' | 'payoutWallet' | 'feeBps' | 'usdValue'>;

/**
 * The lock as the checks judge one transfer: its payout wallet is the one settlement decided when the
 * processor asked where to forward that transfer (docs/adr/0081), or, when it never asked, the
 * account's wallet at start. The fee and the USD value are always the start's (spec: locked at start).
 */
export function lockForTransfer<T extends LockFacts>(lock: T, forwardDecision: string | null): T {
  return forwardDecision === null ? lock : { ...lock, payoutWallet: forwardDecision };
}

/**
 * Addresses compare without regard to letter case: EVM addresses carry an optional checksum in their
 * capitalization, so the same address can be written two ways. Two missing addresses match — that is
 * the Test-mode case, where neither the lock nor the sandbox arrival has a real address.
 */
export function sameAddress(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return a.toLowerCase() === b.toLowerCase();
}

/** "USDC" for polygon_usdc: the coin as people name it. */
function coinLabel(coin: string): string {
  return coin.slice(coin.lastIndexOf('_') + 1).toUpperCase();
}

/** A coin amount in plain words: cents always, further decimals only when they are not zero ("18.40", "8.999999"). */
function plainAmount(value: Decimal): string {
  const cut = value.toDecimalPlaces(6, Decimal.ROUND_DOWN);
  return cut.decimalPlaces() <= 2 ? cut.toFixed(2) : cut.toFixed();
}

interface Failure {
  readonly reason: string;
  readonly acceptable: boolean;
}

/**
 * The first failed check, or null when all pass. Checks showing that the money went elsewhere come
 * first, so an arrival that is both short and misdirected is never acceptable.
 */
function firstFailure(lock: LockFacts, arrival: Arrival, valueCoin: Decimal, evidence: ArrivalEvidence): Failure | null {
  if (evidence.txidUsedBefore) {
    return { reason: `Transaction ${arrival.txidIn} was already used for a payment; a transaction counts only once.`, acceptable: false };
  }
  if (!sameAddress(arrival.toAddress, lock.depositAddress)) {
    return {
      reason: `The money arrived at ${arrival.toAddress ?? 'an unknown address'}, not at this payment's deposit address${lock.depositAddress ? ` ${lock.depositAddress}` : ''}.`,
      acceptable: false,
    };
  }
  if (!sameAddress(arrival.forwardedTo, lock.payoutWallet)) {
    return {
      reason: `The money was forwarded to ${arrival.forwardedTo ?? 'no wallet'}, not to the merchant's payout wallet${lock.payoutWallet ? ` ${lock.payoutWallet}` : ''}.`,
      acceptable: false,
    };
  }
  if (!isDollarCoin(arrival.coin)) {
    return {
      reason: `${formatCoin(valueCoin)} ${arrival.coin} arrived, which is not a dollar coin (${DOLLAR_COINS.join(' or ')}).`,
      acceptable: false,
    };
  }
  const usdValue = new Decimal(lock.usdValue);
  const needed = usdValue.times(HOLD_THRESHOLD);
  // Dollar coins count 1:1 as USD. Exactly 90% is enough; the comparison is exact, only the words round
  // (what is needed up to cents, so the reason never shows a need already met).
  if (valueCoin.lt(needed)) {
    return {
      reason: `${plainAmount(valueCoin)} ${coinLabel(arrival.coin)} arrived, ${needed.toDecimalPlaces(2, Decimal.ROUND_UP).toFixed(2)} needed (${HOLD_THRESHOLD.times(100).toFixed()}% of ${usdValue.toFixed(2)} USD).`,
      acceptable: true,
    };
  }
  return null;
}

/**
 * The arrival with its amount in six-decimal form, as it is recorded and judged. A malformed amount
 * is a processor fault, not a payment outcome, so it throws instead of producing a verdict.
 */
export function normalizeArrival(arrival: Arrival): Arrival {
  const valueCoin = parseCoinAmount(arrival.valueCoin);
  if (!valueCoin) throw new Error(`arrival ${arrival.txidIn} reports a malformed amount ${JSON.stringify(arrival.valueCoin)}`);
  return { ...arrival, valueCoin: formatCoin(valueCoin) };
}

/** The settlement checks of the spec ("Money arrives and passes checks") applied to one arrival. */
export function judgeArrival(lock: LockFacts, arrival: Arrival, evidence: ArrivalEvidence): Decision {
  const valueCoin = parseCoinAmount(arrival.valueCoin);
  if (!valueCoin) throw new Error(`arrival ${arrival.txidIn} reports a malformed amount ${JSON.stringify(arrival.valueCoin)}`);
  const failure = firstFailure(lock, arrival, valueCoin, evidence);
  if (failure) {
    return {
      kind: 'held',
      holdReason: failure.reason,
      holdAcceptable: failure.acceptable,
      // What arrived; nothing counts as forwarded to the merchant for a held payment, even once accepted.
      settlement: {
        coin: arrival.coin,
        valueCoin: formatCoin(valueCoin),
        merchantReceived: null,
        txidIn: arrival.txidIn,
        txidOut: null,
        payoutWallet: lock.payoutWallet,
      },
    };
  }
  return {
    kind: 'paid',
    settlement: {
      coin: arrival.coin,
      valueCoin: formatCoin(valueCoin),
      merchantReceived: formatCoin(merchantShare(valueCoin, lock.feeBps)),
      txidIn: arrival.txidIn,
      txidOut: arrival.txidOut,
      payoutWallet: lock.payoutWallet,
    },
  };
}

/** A declined card: nothing arrived, so there is nothing to check. */
export function judgeDecline(): Decision {
  return { kind: 'failed' };
}
