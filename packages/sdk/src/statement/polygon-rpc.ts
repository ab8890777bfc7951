import { Decimal } from 'decimal.js';
import { ChainReadError, type ChainReader, type ChainTransaction, type ChainTransfer } from './chain.ts';

/** An ERC-20 token the platform settles in: its contract on Polygon PoS and its decimals. */
export interface TokenContract {
  readonly address: string;
  readonly decimals: number;
}

/**
 * The statement's coins on Polygon PoS mainnet (chain id 137): native USDC (Circle) and USDT (Tether's
 * PoS contract), six decimals each. Another network or a bridged token is passed as `tokens`.
 */
export const POLYGON_TOKENS: Readonly<Record<string, TokenContract>> = {
  polygon_usdc: { address: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359', decimals: 6 },
  polygon_usdt: { address: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f', decimals: 6 },
};

/** keccak256("Transfer(address,address,uint256)"): topic 0 of every ERC-20 Transfer log. */
export const ERC20_TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const TXID = /^0x[0-9a-fA-F]{64}$/;
const WORD = /^0x[0-9a-fA-F]{64}$/;
const HEX = /^0x[0-9a-fA-F]*$/;

interface RpcLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
  readonly removed?: boolean;
}

function isLog(value: unknown): value is RpcLog {
  const log = value as Record<string, unknown> | null;
  return (
    typeof log === 'object' &&
    log !== null &&
    typeof log['address'] === 'string' &&
    Array.isArray(log['topics']) &&
    log['topics'].every((topic) => typeof topic === 'string') &&
    typeof log['data'] === 'string'
  );
}

/** A 32-byte topic holding an address (left-padded with zeros) as a 0x-prefixed lower-case address. */
const topicAddress = (topic: string): string => `0x${topic.slice(-40).toLowerCase()}`;

/** An ERC-20 Transfer log as a transfer, or null when the log is another event or another token. */
function transferOf(log: RpcLog, tokens: Readonly<Record<string, TokenContract>>): ChainTransfer | null {
  const [topic0, from, to] = log.topics;
  if (log.removed === true || topic0?.toLowerCase() !== ERC20_TRANSFER_TOPIC || !from || !to) return null;
  if (!WORD.test(from) || !WORD.test(to) || !HEX.test(log.data) || log.data.length < 3) return null;
  const contract = log.address.toLowerCase();
  const coin = Object.entries(tokens).find(([, token]) => token.address.toLowerCase() === contract);
  const decimals = coin?.[1].decimals ?? 0;
  const raw = new Decimal(BigInt(log.data.slice(0, 66)).toString());
  return {
    coin: coin?.[0] ?? null,
    token: contract,
    from: topicAddress(from),
    to: topicAddress(to),
    value: raw.div(new Decimal(10).pow(decimals)).toFixed(decimals),
  };
}

interface RpcAnswer {
  readonly result?: unknown;
  readonly error?: { readonly code?: number; readonly message?: string };
}

/**
 * A Polygon JSON-RPC node (`eth_getTransactionReceipt`, Ethereum JSON-RPC as every node and provider
 * serves it): the receipt's `status` (0x1 succeeded, 0x0 reverted) and its ERC-20 `Transfer` logs of
 * the known token contracts, amounts scaled by the token's decimals with decimal arithmetic. A receipt
 * of null is a transaction the chain does not have (or not yet mined).
 */
export function polygonRpcChain(
  url: string,
  options: { tokens?: Readonly<Record<string, TokenContract>>; fetch?: typeof fetch } = {},
): ChainReader {
  const tokens = options.tokens ?? POLYGON_TOKENS;
  const fetchImpl = options.fetch ?? fetch;
  let id = 0;
  return {
    source: url,
    async transaction(txid: string): Promise<ChainTransaction | null> {
      if (!TXID.test(txid)) return null;
      id += 1;
      let answer: RpcAnswer;
      try {
        const response = await fetchImpl(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_getTransactionReceipt', params: [txid] }),
          signal: AbortSignal.timeout(20_000),
        });
        if (!response.ok) throw new ChainReadError(`the node answered HTTP ${response.status}`);
        answer = (await response.json()) as RpcAnswer;
      } catch (error) {
        if (error instanceof ChainReadError) throw error;
        throw new ChainReadError(`the node did not answer: ${(error as Error).message}`);
      }
      if (answer.error) throw new ChainReadError(`the node answered error ${answer.error.code ?? '?'}: ${answer.error.message ?? ''}`);
      if (answer.result === null) return null;
      const receipt = answer.result as { status?: unknown; logs?: unknown } | undefined;
      if (typeof receipt !== 'object' || !Array.isArray(receipt.logs) || !receipt.logs.every(isLog))
        throw new ChainReadError('the node answered something other than a transaction receipt');
      const transfers = receipt.logs.map((log) => transferOf(log, tokens)).filter((t): t is ChainTransfer => t !== null);
      return { txid, succeeded: receipt.status === '0x1', transfers };
    },
  };
}
