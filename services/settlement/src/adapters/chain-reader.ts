/** An inbound transfer to a deposit address, as the chain shows it (no forwarding: that is the processor's). */
export interface ChainTransfer {
  readonly txid: string;
  readonly coin: string;
  /** Decimal string in `coin`. */
  readonly value: string;
  /** The address it was sent to. */
  readonly to: string;
  readonly blockTime: Date;
}

/** Reads inbound transfers to an address. */
export interface ChainReader {
  transfersTo(address: string): Promise<ChainTransfer[]>;
}

/** The chain reader did not answer (in time, or sensibly): the check tries again on its next pass. */
export class ChainUnavailable extends Error {}

function isTransfer(value: unknown): value is { txid: string; coin: string; value: string; to: string; block_time: string } {
  if (typeof value !== 'object' || value === null) return false;
  const t = value as Record<string, unknown>;
  return ['txid', 'coin', 'value', 'to', 'block_time'].every((name) => typeof t[name] === 'string' && t[name] !== '');
}

/**
 * The chain indexer's HTTP API (`GET {CHAIN_RPC_URL}/chain/v1/addresses/{address}/transfers`; the
 * emulator plays it on one machine). Anything but a well-formed answer within the deadline is
 * ChainUnavailable: a chain check never decides on a partial or garbled answer.
 */
export class HttpChainReader implements ChainReader {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(baseUrl: string, timeoutMs: number) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = timeoutMs;
  }

  async transfersTo(address: string): Promise<ChainTransfer[]> {
    let body: unknown;
    try {
      const response = await fetch(`${this.baseUrl}/chain/v1/addresses/${encodeURIComponent(address)}/transfers`, {
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) throw new ChainUnavailable(`the chain reader answered ${response.status}`);
      body = await response.json();
    } catch (error) {
      if (error instanceof ChainUnavailable) throw error;
      throw new ChainUnavailable(`the chain reader did not answer: ${(error as Error).message}`);
    }
    const transfers = (body as { transfers?: unknown } | null)?.transfers;
    if (!Array.isArray(transfers) || !transfers.every(isTransfer)) throw new ChainUnavailable('the chain reader answered something else');
    return transfers.map((t) => ({ txid: t.txid, coin: t.coin, value: t.value, to: t.to, blockTime: new Date(t.block_time) }));
  }
}
