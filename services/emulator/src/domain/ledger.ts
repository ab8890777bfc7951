import { randomBytes } from 'node:crypto';
import { Decimal } from '@hc/money';

/** The dollar coins the emulated chain carries. */
export const EMULATED_COINS = ['polygon_usdc', 'polygon_usdt'] as const;
export type EmulatedCoin = (typeof EMULATED_COINS)[number];

/**
 * A one-time deposit address the processor gave a payment, with the fee it keeps. No wallet: where
 * the money goes is asked of settlement when it is forwarded (docs/adr/0081).
 */
export interface DepositAddress {
  readonly address: string;
  readonly paymentId: string;
  readonly feeBps: number;
}

/** Money that reached a deposit address (or was reported with a reused transaction), not yet forwarded. */
export interface Receipt {
  readonly deposit: DepositAddress;
  readonly txidIn: string;
  readonly toAddress: string;
  readonly coin: EmulatedCoin;
  readonly value: Decimal;
}

/** A transfer as the chain shows it: a transaction, a coin, an amount, a recipient (and a sender when forwarded). */
export interface Transfer {
  readonly txid: string;
  readonly coin: EmulatedCoin;
  /** The deposit address for a forwarding; null for a buyer's transfer (the emulator plays no buyer wallet). */
  readonly from: string | null;
  /** Six decimals. */
  readonly value: string;
  readonly to: string;
  readonly blockTime: Date;
}

/** What one buyer payment did: where the money went and what the processor reports about it. */
export interface EmulatedPayment {
  readonly paymentId: string;
  readonly depositAddress: string;
  /** The transaction the notice reports (another payment's, when reusing a txid). */
  readonly txidIn: string;
  /** Where the transfer really went (the deposit address unless told otherwise). */
  readonly toAddress: string;
  readonly coin: EmulatedCoin;
  readonly valueCoin: string;
  readonly forwardedTo: string | null;
  readonly txidOut: string | null;
  readonly valueForwarded: string | null;
}

export interface PayOrder {
  readonly paymentId: string;
  /** Decimal string: what the buyer sends, in the coin. */
  readonly amount: string;
  readonly coin: EmulatedCoin;
  /** Forward to this wallet instead of the one settlement named (a processor that misdirects money). */
  readonly forwardTo?: string | undefined;
  /** Send to this address instead of the payment's deposit address. */
  readonly toAddress?: string | undefined;
  /** Report the inbound transaction of this other payment instead of making a new one (a replayed txid). */
  readonly reuseTxidOf?: string | undefined;
}

export class LedgerError extends Error {
  override name = 'LedgerError';
}

const AMOUNT = /^(0|[1-9][0-9]*)(\.[0-9]{1,6})?$/;

function randomHex(bytes: number): string {
  return `0x${randomBytes(bytes).toString('hex')}`;
}

/**
 * The processor's and the chain's state, in memory: the emulator is for one machine and tests, and
 * starts empty after a restart (payments started before it cannot be paid through it afterwards).
 */
export class Ledger {
  private readonly addresses = new Map<string, DepositAddress>();
  private readonly transfers: Transfer[] = [];
  private readonly payments = new Map<string, EmulatedPayment>();

  /** The payment's deposit address, made on the first request (the same address on a repeat). */
  depositAddressFor(paymentId: string, feeBps: number): DepositAddress {
    const existing = this.addresses.get(paymentId);
    if (existing) return existing;
    const made: DepositAddress = { address: randomHex(20), paymentId, feeBps };
    this.addresses.set(paymentId, made);
    return made;
  }

  /** The transfers of one transaction (none: the chain has no such transaction). */
  transaction(txid: string): Transfer[] {
    const wanted = txid.toLowerCase();
    return this.transfers.filter((t) => t.txid.toLowerCase() === wanted);
  }

  transfersTo(address: string): Transfer[] {
    const wanted = address.toLowerCase();
    return this.transfers.filter((t) => t.to.toLowerCase() === wanted);
  }

  /** A buyer's payment: the transfer on chain, then the forwarding less the fee to `payoutWallet`. */
  pay(order: PayOrder, now: Date, payoutWallet: string | null): EmulatedPayment {
    return this.forward(order, this.receive(order, now), payoutWallet, now);
  }

  /** A buyer's transfer reaches the chain (unless a txid is reused); nothing is forwarded yet. */
  receive(order: PayOrder, now: Date): Receipt {
    const deposit = this.addresses.get(order.paymentId);
    if (!deposit) throw new LedgerError(`no deposit address was issued for ${order.paymentId}: start the Live payment first`);
    if (!AMOUNT.test(order.amount) || new Decimal(order.amount).lte(0))
      throw new LedgerError('amount must be a positive decimal with at most 6 decimals');
    const value = new Decimal(order.amount);
    const toAddress = order.toAddress ?? deposit.address;
    let txidIn: string;
    if (order.reuseTxidOf !== undefined) {
      const earlier = this.payments.get(order.reuseTxidOf);
      if (!earlier) throw new LedgerError(`payment ${order.reuseTxidOf} was never paid through the emulator`);
      txidIn = earlier.txidIn;
    } else {
      txidIn = randomHex(32);
      this.transfers.push({ txid: txidIn, coin: order.coin, from: null, value: value.toFixed(6), to: toAddress, blockTime: now });
    }
    return { deposit, txidIn, toAddress, coin: order.coin, value };
  }

  /**
   * The processor forwards a received transfer, less the fee, to `payoutWallet` (what settlement
   * answered), or to the order's `forwardTo`; with neither, the money stays at the deposit address.
   */
  forward(order: PayOrder, receipt: Receipt, payoutWallet: string | null, now: Date = new Date()): EmulatedPayment {
    const { deposit, txidIn, toAddress, value } = receipt;
    const forwardedTo = order.forwardTo ?? payoutWallet;
    const forwarded = value.times(new Decimal(1).minus(new Decimal(deposit.feeBps).div(10_000))).toDecimalPlaces(6, Decimal.ROUND_DOWN);
    const txidOut = forwardedTo ? randomHex(32) : null;
    const payment: EmulatedPayment = {
      paymentId: order.paymentId,
      depositAddress: deposit.address,
      txidIn,
      toAddress,
      coin: receipt.coin,
      valueCoin: value.toFixed(6),
      forwardedTo,
      txidOut,
      valueForwarded: forwardedTo ? forwarded.toFixed(6) : null,
    };
    // The forwarding is a transaction on chain too: a statement's txid_out is checked against it.
    if (txidOut && forwardedTo)
      this.transfers.push({
        txid: txidOut,
        coin: receipt.coin,
        from: deposit.address,
        value: forwarded.toFixed(6),
        to: forwardedTo,
        blockTime: now,
      });
    this.payments.set(order.paymentId, payment);
    return payment;
  }
}
