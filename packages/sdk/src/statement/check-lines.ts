import { Decimal } from 'decimal.js';
import type { ChainReader, ChainTransfer } from './chain.ts';
import type { StatementRecord } from './formats.ts';

/** One check of one statement line: what the statement says, what the chain has, and whether they agree. */
export interface LineCheck {
  readonly payment: string;
  readonly what: 'sum' | 'txid_in' | 'txid_out';
  readonly ok: boolean;
  /** Plain words: which of amount, destination and token match, or what is missing. */
  readonly detail: string;
}

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;
const same = (a: string | null, b: string | null): boolean => a !== null && b !== null && a.toLowerCase() === b.toLowerCase();
const equalAmounts = (a: string, b: string): boolean => PLAIN_DECIMAL.test(a) && PLAIN_DECIMAL.test(b) && new Decimal(a).eq(b);

interface Expected {
  readonly coin: string;
  readonly value: string;
  /** The destination, when the statement names it (the payout wallet); null when only the chain does. */
  readonly to: string | null;
  /** The sender, when known from the inbound transfer (the deposit address). */
  readonly from: string | null;
}

/** How well a transfer fits what was expected: each of token, amount and destination that matches. */
function fit(transfer: ChainTransfer, expected: Expected): { token: boolean; amount: boolean; to: boolean; from: boolean } {
  return {
    token: transfer.coin === expected.coin,
    amount: equalAmounts(transfer.value, expected.value),
    to: expected.to === null || same(transfer.to, expected.to),
    from: expected.from === null || transfer.from === null || same(transfer.from, expected.from),
  };
}

function describe(transfer: ChainTransfer, expected: Expected): { ok: boolean; detail: string } {
  const f = fit(transfer, expected);
  const parts = [
    f.amount ? `amount ${transfer.value} matches` : `amount: statement ${expected.value}, chain ${transfer.value}`,
    f.token ? `token ${expected.coin} matches` : `token: statement ${expected.coin}, chain ${transfer.coin ?? transfer.token}`,
    expected.to === null
      ? `to ${transfer.to}`
      : f.to
        ? `destination ${transfer.to} matches`
        : `destination: statement ${expected.to}, chain ${transfer.to}`,
  ];
  if (!f.from) parts.push(`sender: ${transfer.from} is not the address the payment arrived at (${expected.from})`);
  return { ok: f.token && f.amount && f.to && f.from, detail: parts.join('; ') };
}

/** The transfer of the transaction that best fits (most of token, amount, destination, sender). */
function bestFit(transfers: readonly ChainTransfer[], expected: Expected): ChainTransfer | undefined {
  const score = (t: ChainTransfer) => Object.values(fit(t, expected)).filter(Boolean).length;
  return [...transfers].sort((a, b) => score(b) - score(a))[0];
}

async function checkTransaction(
  chain: ChainReader,
  line: StatementRecord,
  what: 'txid_in' | 'txid_out',
  expected: Expected,
): Promise<{ check: LineCheck; transfer?: ChainTransfer }> {
  const payment = line['payment'] ?? '';
  const txid = line[what] ?? '';
  if (!txid) return { check: { payment, what, ok: false, detail: 'no transaction id on the statement' } };
  const transaction = await chain.transaction(txid);
  if (!transaction) return { check: { payment, what, ok: false, detail: `${txid} is not on chain` } };
  if (!transaction.succeeded) return { check: { payment, what, ok: false, detail: `${txid} is on chain but failed (reverted)` } };
  const transfer = bestFit(transaction.transfers, expected);
  if (!transfer) return { check: { payment, what, ok: false, detail: `${txid} moves none of the statement's tokens` } };
  const { ok, detail } = describe(transfer, expected);
  return { check: { payment, what, ok, detail: `${txid}: ${detail}` }, transfer };
}

/**
 * Checks one paid payment's line against the chain: the line adds up (arrived = fee + forwarded), its
 * txid_in moved `arrived` of the coin (to the deposit address, which the chain names), and its
 * txid_out moved `forwarded` of the coin from that deposit address to the payout wallet.
 */
export async function checkLine(chain: ChainReader, line: StatementRecord): Promise<LineCheck[]> {
  const payment = line['payment'] ?? '';
  const [coin, arrived, fee, forwarded] = [line['coin'] ?? '', line['arrived'] ?? '', line['fee'] ?? '', line['forwarded'] ?? ''];
  const adds = [arrived, fee, forwarded].every((v) => PLAIN_DECIMAL.test(v)) && new Decimal(arrived).eq(new Decimal(fee).plus(forwarded));
  const checks: LineCheck[] = [
    {
      payment,
      what: 'sum',
      ok: adds,
      detail: adds
        ? `arrived ${arrived} = fee ${fee} + forwarded ${forwarded}`
        : `arrived ${arrived} ≠ fee ${fee} + forwarded ${forwarded}`,
    },
  ];
  const inbound = await checkTransaction(chain, line, 'txid_in', { coin, value: arrived, to: null, from: null });
  checks.push(inbound.check);
  const deposit = inbound.check.ok ? (inbound.transfer?.to ?? null) : null;
  const outbound = await checkTransaction(chain, line, 'txid_out', {
    coin,
    value: forwarded,
    to: line['payout_wallet'] ?? '',
    from: deposit,
  });
  checks.push(outbound.check);
  return checks;
}
