import { ChainReadError, type ChainReader, type ChainTransaction, type ChainTransfer } from './chain.ts';

function isTransfer(value: unknown): value is { coin: string; from: string | null; to: string; value: string } {
  const t = value as Record<string, unknown> | null;
  return (
    typeof t === 'object' &&
    t !== null &&
    typeof t['coin'] === 'string' &&
    (t['from'] === null || typeof t['from'] === 'string') &&
    typeof t['to'] === 'string' &&
    typeof t['value'] === 'string'
  );
}

/**
 * The local platform's chain: the emulator's chain API (`GET {url}/chain/v1/transactions/{txid}`,
 * services/emulator), which names coins as statements do. Local and tests only; production reads a
 * Polygon node (polygon-rpc.ts).
 */
export function emulatorChain(baseUrl: string, fetchImpl: typeof fetch = fetch): ChainReader {
  const root = baseUrl.replace(/\/+$/, '');
  return {
    source: `${root}/chain/v1`,
    async transaction(txid: string): Promise<ChainTransaction | null> {
      let answer: Response;
      try {
        answer = await fetchImpl(`${root}/chain/v1/transactions/${encodeURIComponent(txid)}`, { signal: AbortSignal.timeout(15_000) });
      } catch (error) {
        throw new ChainReadError(`the chain API did not answer: ${(error as Error).message}`);
      }
      if (answer.status === 404) return null;
      if (!answer.ok) throw new ChainReadError(`the chain API answered ${answer.status}`);
      const body = (await answer.json()) as { status?: unknown; transfers?: unknown };
      if (!Array.isArray(body.transfers) || !body.transfers.every(isTransfer))
        throw new ChainReadError('the chain API answered something else');
      const transfers: ChainTransfer[] = body.transfers.map((t) => ({
        coin: t.coin,
        token: t.coin,
        from: t.from,
        to: t.to,
        value: t.value,
      }));
      return { txid, succeeded: body.status === 'success', transfers };
    },
  };
}
