import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@hc/logging';
import type { EmulatorConfig } from './config.ts';
import { EMULATED_COINS, Ledger, LedgerError, type EmulatedCoin } from './ledger.ts';
import { NOTICE_MODES, NoticeSender, noticeBody, type NoticeMode } from './notices.ts';

export interface RunningEmulator {
  /** Base URL: the processor API, the chain reader (/chain/v1) and the controls (/emulator/v1). */
  readonly url: string;
  readonly ledger: Ledger;
  /** Sends notices to this URL instead of EMULATOR_NOTICE_URL. */
  directNoticesTo(url: string): void;
  stop(): Promise<void>;
}

class BadRequest extends Error {}

function send(res: ServerResponse, status: number, body: unknown): void {
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

/** The running emulator's parts that its routes use. */
interface EmulatorParts {
  readonly config: EmulatorConfig;
  readonly ledger: Ledger;
  readonly notices: NoticeSender;
}

/** One request to the route it names (404 for any other). */
async function route(emulator: EmulatorParts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { ledger } = emulator;
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
    return pay(emulator, decodeURIComponent(parts[3]!), req, res);
  }
  send(res, 404, { error: { code: 'not_found', message: `${req.method} ${url.pathname} is not an emulator route` } });
}

/** A buyer pays: the chain records the transfer, the processor forwards it and notifies as `notice` says. */
async function pay(emulator: EmulatorParts, paymentId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
  const receipt = emulator.ledger.receive(order, new Date());
  // Where to forward is asked when forwarding, never fixed when the address was made (docs/adr/0081).
  const wallet = await emulator.notices.askForwardTarget(order.paymentId, receipt.txidIn);
  const payment = emulator.ledger.forward(order, receipt, wallet);
  const notice = noticeBody(payment, mode);
  const deliveries = await sendNotices(emulator, notice, mode, payment.forwardedTo !== null);
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

type NoticeDelivery = { id: string; status: number | 'scheduled' };

/**
 * The notices of one payment, sent as its mode says. Not forwarded (`reported` false: settlement named
 * no wallet): the processor keeps the money and reports nothing yet.
 */
async function sendNotices(
  emulator: EmulatorParts,
  notice: ReturnType<typeof noticeBody>,
  mode: NoticeMode,
  reported: boolean,
): Promise<NoticeDelivery[]> {
  const deliveries: NoticeDelivery[] = [];
  if (reported && mode === 'on-time') deliveries.push(await emulator.notices.send(notice));
  if (reported && (mode === 'late' || mode === 'mismatch'))
    deliveries.push(await emulator.notices.send(notice, emulator.config.EMULATOR_LATE_NOTICE_MS));
  if (reported && mode === 'duplicate') {
    const first = await emulator.notices.send(notice);
    deliveries.push(first, await emulator.notices.send(notice, 0, first.id));
  }
  if (reported && mode === 'out-of-order') {
    // The original was made a minute ago but is delivered after its re-sent copy (a new id).
    const madeAt = new Date(Date.now() - 60_000);
    const resent = await emulator.notices.send(notice);
    deliveries.push(resent, await emulator.notices.send(notice, 0, undefined, madeAt));
  }
  return deliveries;
}

/**
 * The emulator of the Live processor and the Polygon chain (services/emulator/README.md):
 *   POST /v1/deposit-addresses                      processor: one deposit address per payment
 *   GET  /chain/v1/addresses/:address/transfers     chain: inbound transfers to an address
 *   GET  /chain/v1/transactions/:txid               chain: one transaction's transfers (a statement's check)
 *   POST /emulator/v1/payments/:payment_id/pay      a buyer pays; the processor forwards and notifies
 */
export async function startEmulator(config: EmulatorConfig, logger: Logger): Promise<RunningEmulator> {
  const ledger = new Ledger();
  const notices = new NoticeSender(config.EMULATOR_NOTICE_URL, config.NOTICE_SIGNING_SECRET, logger);

  const parts: EmulatorParts = { config, ledger, notices };
  const server = createServer((req, res) => {
    route(parts, req, res).catch((error: unknown) => {
      if (error instanceof BadRequest || error instanceof LedgerError)
        return send(res, 400, { error: { code: 'bad_request', message: error.message } });
      logger.error({ err: error }, 'emulator request failed');
      send(res, 500, { error: { code: 'internal_error', message: 'emulator failure' } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.EMULATOR_PORT, config.EMULATOR_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${config.EMULATOR_HOST}:${port}`,
    ledger,
    directNoticesTo: (noticeUrl) => notices.setUrl(noticeUrl),
    async stop() {
      notices.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
