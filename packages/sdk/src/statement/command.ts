import { readFile } from 'node:fs/promises';
import { ChainReadError, type ChainReader } from './chain.ts';
import type { LineCheck } from './check-lines.ts';
import { emulatorChain } from './emulator-chain.ts';
import { polygonRpcChain } from './polygon-rpc.ts';
import { StatementFormatError } from './seal.ts';
import { loadStatementKeys, STATEMENT_KEYS_PATH } from './signature.ts';
import { verifyStatement } from './verify.ts';

export interface VerifyStatementOptions {
  readonly file: string;
  /** A URL or a file of the platform's public keys; default: the well-known document at `baseUrl`. */
  readonly keys?: string | undefined;
  /** The platform's public address, where the keys are published (`/.well-known/hc-statement-keys.json`). */
  readonly baseUrl: string;
  /** A Polygon JSON-RPC URL (production), or … */
  readonly polygonRpc?: string | undefined;
  /** … the local emulator's chain API (the local platform, tests). */
  readonly chainApi?: string | undefined;
}

export interface Output {
  write(text: string): unknown;
}

const mark = (check: LineCheck) => `${check.ok ? 'ok  ' : 'FAIL'} ${check.payment} ${check.what.padEnd(8)} ${check.detail}\n`;

/**
 * `hosted-checkout verify-statement FILE`: prints the signature's verdict, then one line per check of
 * each paid payment, and answers the exit code: 0 when everything matches, 1 on any mismatch, 2 when
 * the statement, the keys or the chain could not be read at all.
 */
export async function runVerifyStatement(options: VerifyStatementOptions, out: Output, err: Output): Promise<number> {
  const chain: ChainReader | undefined = options.polygonRpc
    ? polygonRpcChain(options.polygonRpc)
    : options.chainApi
      ? emulatorChain(options.chainApi)
      : undefined;
  if (!chain) {
    err.write('hosted-checkout: verify-statement needs a chain: --polygon-rpc URL (production) or --chain-api URL (the local emulator)\n');
    return 2;
  }
  const keysFrom = options.keys ?? `${options.baseUrl.replace(/\/+$/, '')}${STATEMENT_KEYS_PATH}`;
  try {
    const [bytes, keys] = await Promise.all([readFile(options.file), loadStatementKeys(keysFrom)]);
    out.write(`Statement ${options.file}: checking the signature with the keys of ${keysFrom}, the transactions on ${chain.source}\n`);
    const report = await verifyStatement(bytes, keys, chain, (check) => out.write(mark(check)));
    const { seal, signature } = report;
    out.write(
      signature.ok
        ? `ok   signature: signed by the platform's key ${signature.keyId} (${seal.format}, ${seal.account}, ${seal.mode}, ${seal.from} to ${seal.to}, made ${seal.created})\n`
        : `FAIL signature: ${signature.problem}\n`,
    );
    const failed = report.checks.filter((check) => !check.ok).length;
    out.write(
      report.ok
        ? `Verified: the signature and ${report.checks.length} checks match.\n`
        : `NOT verified: ${signature.ok ? '' : 'the signature fails; '}${failed} of ${report.checks.length} checks do not match.\n`,
    );
    return report.ok ? 0 : 1;
  } catch (error) {
    // Nothing verified either way: a file that is not a statement, keys or a chain out of reach.
    const known = error instanceof StatementFormatError || error instanceof ChainReadError;
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    const why = missing ? `no such file: ${(error as NodeJS.ErrnoException).path ?? options.file}` : (error as Error).message;
    err.write(
      `hosted-checkout: ${known ? '' : 'cannot verify: '}${why}${error instanceof TypeError && error.cause ? ` (${String(error.cause)})` : ''}\n`,
    );
    return 2;
  }
}
