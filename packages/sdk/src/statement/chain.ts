/** A token transfer inside a transaction, as a chain reader reports it (amounts as decimal strings). */
export interface ChainTransfer {
  /** The statement's coin name (`polygon_usdc`) when the token is one the reader knows, else null. */
  readonly coin: string | null;
  /** The token as the chain names it: a contract address, or the coin name on the emulator. */
  readonly token: string;
  /** The sender, when the chain says. */
  readonly from: string | null;
  readonly to: string;
  /** In whole coins, a decimal string (`9.900000`). */
  readonly value: string;
}

export interface ChainTransaction {
  readonly txid: string;
  /** False when the transaction is on chain but reverted: its transfers did not happen. */
  readonly succeeded: boolean;
  readonly transfers: readonly ChainTransfer[];
}

/** Reads one transaction from a chain: the local emulator's chain API, or a Polygon JSON-RPC node. */
export interface ChainReader {
  /** Where the reader reads, for the report. */
  readonly source: string;
  /** The transaction, or null when the chain has none with this id. */
  transaction(txid: string): Promise<ChainTransaction | null>;
}

export class ChainReadError extends Error {
  override readonly name = 'ChainReadError';
}
