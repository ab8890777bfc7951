import type { IncomingMessage, ServerResponse } from 'node:http';
import { EMULATED_COINS, type EmulatedCoin } from '../../domain/ledger.ts';
import { NOTICE_MODES, type NoticeMode } from '../../domain/notice-body.ts';
import type { EmulatorDependencies } from '../../use-cases/dependencies.ts';
import { pay } from '../../use-cases/pay.ts';

/** A request the emulator refuses with 400 bad_request. */
export class BadRequest extends Error {}

export function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new BadRequest('body too large');
    chunks.push(chunk as Buffer);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
    return parsed as Record<string, unknown>;
  } catch {
    throw new BadRequest('body must be a JSON object');
  }
}

function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '') throw new BadRequest(`${name} must be a non-empty string`);
  return value;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, name: string): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new BadRequest(`${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** One request to the route it names (404 for any other). */
export async function route(deps: EmulatorDependencies, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { ledger } = deps;
  const url = new URL(req.url ?? '/', 'http://emulator');
  const parts = url.pathname.split('/').filter(Boolean);
  if (req.method === 'POST' && url.pathname === '/v1/deposit-addresses') {
    const body = await readJson(req);
    const paymentId = optionalString(body, 'payment_id');
    if (!paymentId) throw new BadRequest('payment_id is required');
    const feeBps = body['fee_bps'] === undefined ? 0 : Number(body['fee_bps']);
    if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > 10_000) throw new BadRequest('fee_bps must be an integer 0–10000');
    // A payout_wallet in the body is ignored: settlement names the wallet when the money is forwarded.
    const deposit = ledger.depositAddressFor(paymentId, feeBps);
    return send(res, 201, { address: deposit.address, payment_id: paymentId });
  }
  if (req.method === 'GET' && parts.length === 5 && parts[0] === 'chain' && parts[2] === 'addresses' && parts[4] === 'transfers') {
    const transfers = ledger.transfersTo(decodeURIComponent(parts[3]!));
    return send(res, 200, {
      transfers: transfers.map((t) => ({ txid: t.txid, coin: t.coin, value: t.value, to: t.to, block_time: t.blockTime.toISOString() })),
    });
  }
  if (req.method === 'GET' && parts.length === 4 && parts[0] === 'chain' && parts[2] === 'transactions') {
    const txid = decodeURIComponent(parts[3]!);
    const transfers = ledger.transaction(txid);
    if (transfers.length === 0) return send(res, 404, { error: { code: 'not_found', message: `no transaction ${txid} on chain` } });
    return send(res, 200, {
      txid,
      status: 'success',
      block_time: transfers[0]!.blockTime.toISOString(),
      transfers: transfers.map((t) => ({ coin: t.coin, from: t.from, to: t.to, value: t.value })),
    });
  }
  if (req.method === 'POST' && parts.length === 5 && parts[0] === 'emulator' && parts[2] === 'payments' && parts[4] === 'pay') {
    return payRoute(deps, decodeURIComponent(parts[3]!), req, res);
  }
  send(res, 404, { error: { code: 'not_found', message: `${req.method} ${url.pathname} is not an emulator route` } });
}

/** POST /emulator/v1/payments/:payment_id/pay: the body read and checked, then the pay use case. */
async function payRoute(deps: EmulatorDependencies, paymentId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req);
  const amount = optionalString(body, 'amount');
  if (!amount) throw new BadRequest('amount is required');
  const coin = oneOf<EmulatedCoin>(optionalString(body, 'coin'), EMULATED_COINS, 'polygon_usdc', 'coin');
  const mode = oneOf<NoticeMode>(optionalString(body, 'notice'), NOTICE_MODES, 'on-time', 'notice');
  const order = {
    paymentId,
    amount,
    coin,
    forwardTo: optionalString(body, 'forward_to'),
    toAddress: optionalString(body, 'to_address'),
    reuseTxidOf: optionalString(body, 'reuse_txid_of'),
  };
  const { payment, deliveries } = await pay(deps, order, mode);
  return send(res, 200, {
    payment_id: payment.paymentId,
    deposit_address: payment.depositAddress,
    to_address: payment.toAddress,
    txid_in: payment.txidIn,
    coin: payment.coin,
    value_coin: payment.valueCoin,
    forwarded_to: payment.forwardedTo,
    txid_out: payment.txidOut,
    value_forwarded: payment.valueForwarded,
    notice: { mode, deliveries },
  });
}
