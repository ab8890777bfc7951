// Risk covered: a statement check that trusts the wrong thing on chain — a transfer of another token,
// another amount or to another wallet read as a match, a reverted or unknown transaction read as
// paid, or a node's receipt misread (topics, data, decimals). A real HTTP server answers JSON-RPC as a
// Polygon node does (eth_getTransactionReceipt, receipts with ERC-20 Transfer logs and Polygon's fee log).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { checkLine, ERC20_TRANSFER_TOPIC, POLYGON_TOKENS, polygonRpcChain } from '../src/index.ts';

const DEPOSIT = '0x2222222222222222222222222222222222222222';
const WALLET = '0x1111111111111111111111111111111111111111';
const BUYER = '0x3333333333333333333333333333333333333333';
const tx = (digit: string) => `0x${digit.repeat(64)}`;
const word = (address: string) => `0x${'0'.repeat(24)}${address.slice(2).toLowerCase()}`;
const amount = (micro: bigint) => `0x${micro.toString(16).padStart(64, '0')}`;

/** A log as a node answers it, with the fields every receipt log carries. */
function log(txid: string, index: number, address: string, topics: string[], data: string) {
  return {
    address,
    topics,
    data,
    blockNumber: '0x4c4b40',
    blockHash: `0x${'9'.repeat(64)}`,
    transactionHash: txid,
    transactionIndex: '0x3',
    logIndex: `0x${index.toString(16)}`,
    removed: false,
  };
}

const transfer = (txid: string, index: number, token: string, from: string, to: string, micro: bigint) =>
  log(txid, index, token, [ERC20_TRANSFER_TOPIC, word(from), word(to)], amount(micro));

/** Polygon's native-token fee log (LogFeeTransfer), present in every Polygon PoS receipt. */
const feeLog = (txid: string) =>
  log(
    txid,
    9,
    '0x0000000000000000000000000000000000001010',
    [
      '0x4dfe1bbbcf077ddc3e01291eea2d5c70c2b422b415d95645b9adcfd678cb1d63',
      word('0x0000000000000000000000000000000000001010'),
      word(BUYER),
      word(DEPOSIT),
    ],
    `0x${'0'.repeat(320)}`,
  );

function receipt(txid: string, status: '0x1' | '0x0', logs: ReturnType<typeof log>[]) {
  return {
    blockHash: `0x${'9'.repeat(64)}`,
    blockNumber: '0x4c4b40',
    contractAddress: null,
    cumulativeGasUsed: '0x1d4c0',
    effectiveGasPrice: '0x6fc23ac00',
    from: BUYER,
    gasUsed: '0xfde8',
    logs,
    logsBloom: `0x${'0'.repeat(512)}`,
    status,
    to: POLYGON_TOKENS['polygon_usdc']!.address,
    transactionHash: txid,
    transactionIndex: '0x3',
    type: '0x2',
  };
}

const USDC = POLYGON_TOKENS['polygon_usdc']!.address;
const USDT = POLYGON_TOKENS['polygon_usdt']!.address;
const RECEIPTS: Record<string, ReturnType<typeof receipt>> = {
  [tx('a')]: receipt(tx('a'), '0x1', [transfer(tx('a'), 0, USDC, BUYER, DEPOSIT, 10_000_000n), feeLog(tx('a'))]),
  [tx('b')]: receipt(tx('b'), '0x1', [transfer(tx('b'), 0, USDC, DEPOSIT, WALLET, 9_850_000n), feeLog(tx('b'))]),
  [tx('c')]: receipt(tx('c'), '0x0', [feeLog(tx('c'))]),
  [tx('d')]: receipt(tx('d'), '0x1', [transfer(tx('d'), 0, USDT, DEPOSIT, WALLET, 9_850_000n)]),
};

let server: Server;
let url: string;
const methods: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { jsonrpc: string; id: number; method: string; params: string[] };
      methods.push(`${req.method} ${req.headers['content-type']} ${call.jsonrpc} ${call.method}`);
      const answer =
        call.method === 'eth_getTransactionReceipt'
          ? { jsonrpc: '2.0', id: call.id, result: RECEIPTS[call.params[0]!.toLowerCase()] ?? null }
          : { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: `the method ${call.method} does not exist/is not available` } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const line = (overrides: Record<string, string> = {}) => ({
  line: 'payment',
  payment: 'pay_1',
  coin: 'polygon_usdc',
  arrived: '10.000000',
  fee: '0.15',
  forwarded: '9.850000',
  txid_in: tx('a'),
  txid_out: tx('b'),
  payout_wallet: WALLET,
  ...overrides,
});

const verdicts = async (overrides: Record<string, string> = {}) =>
  Object.fromEntries((await checkLine(polygonRpcChain(url), line(overrides))).map((check) => [check.what, check]));

describe('a statement line against a Polygon node', () => {
  it('matches when the receipts show the arrival and the forwarding of the same USDC, from the deposit address to the wallet', async () => {
    const checks = await verdicts({ payout_wallet: WALLET.toUpperCase().replace('0X', '0x') });
    expect(Object.values(checks).map((check) => check.ok)).toEqual([true, true, true]);
    expect(checks['txid_in']!.detail).toBe(`${tx('a')}: amount 10.000000 matches; token polygon_usdc matches; to ${DEPOSIT}`);
    expect(checks['txid_out']!.detail).toContain(`destination ${WALLET} matches`);
    expect(methods).toContain('POST application/json 2.0 eth_getTransactionReceipt');
  });

  it('reports a forwarded amount the chain does not show', async () => {
    const checks = await verdicts({ forwarded: '9.950000', fee: '0.05' });
    expect(checks['sum']!.ok).toBe(true);
    expect(checks['txid_out']).toMatchObject({ ok: false, detail: expect.stringContaining('amount: statement 9.950000, chain 9.850000') });
  });

  it('reports money forwarded to another wallet than the statement names', async () => {
    const checks = await verdicts({ payout_wallet: BUYER });
    expect(checks['txid_out']).toMatchObject({
      ok: false,
      detail: expect.stringContaining(`destination: statement ${BUYER}, chain ${WALLET}`),
    });
  });

  it('reports another token than the statement’s coin', async () => {
    const checks = await verdicts({ txid_out: tx('d') });
    expect(checks['txid_out']).toMatchObject({
      ok: false,
      detail: expect.stringContaining(`token: statement polygon_usdc, chain polygon_usdt`),
    });
  });

  it('reports a transaction the node does not have, one that reverted, and a line that does not add up', async () => {
    const checks = await verdicts({ txid_in: tx('e'), txid_out: tx('c'), fee: '0.16' });
    expect(checks['sum']).toMatchObject({ ok: false });
    expect(checks['txid_in']).toMatchObject({ ok: false, detail: `${tx('e')} is not on chain` });
    expect(checks['txid_out']).toMatchObject({ ok: false, detail: `${tx('c')} is on chain but failed (reverted)` });
  });

  it('says so when the node answers a JSON-RPC error instead of a receipt', async () => {
    const broken = polygonRpcChain(url.replace(/\/$/, '/'), {
      fetch: (input, init) => fetch(input, { ...init, body: String(init?.body).replace('eth_getTransactionReceipt', 'eth_nope') }),
    });
    await expect(broken.transaction(tx('a'))).rejects.toThrow('the node answered error -32601');
  });
});
