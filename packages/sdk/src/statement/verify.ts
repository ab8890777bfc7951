import type { ChainReader } from './chain.ts';
import { checkLine, type LineCheck } from './check-lines.ts';
import { readStatement } from './formats.ts';
import type { StatementSeal } from './seal.ts';
import { verifyStatementSignature, type SignatureVerdict, type StatementKeys } from './signature.ts';

export interface StatementReport {
  readonly seal: StatementSeal;
  readonly signature: SignatureVerdict;
  /** Per paid payment: its sum, its txid_in and its txid_out against the chain. */
  readonly checks: readonly LineCheck[];
  /** The signature verifies and every check matches. */
  readonly ok: boolean;
}

/**
 * Verifies a signed statement (CSV or JSON, as downloaded): the platform's Ed25519 signature with the
 * published keys, then every paid payment's transactions against the chain. The chain is checked even
 * when the signature fails, so the report says what the chain agrees with either way. `onCheck` sees
 * each check as it is made (a long statement reports as it goes).
 */
export async function verifyStatement(
  bytes: Uint8Array,
  keys: StatementKeys,
  chain: ChainReader,
  onCheck: (check: LineCheck) => void = () => {},
): Promise<StatementReport> {
  const statement = readStatement(bytes);
  const signature = verifyStatementSignature(statement, keys);
  const checks: LineCheck[] = [];
  for (const line of statement.lines) {
    for (const check of await checkLine(chain, line)) {
      checks.push(check);
      onCheck(check);
    }
  }
  return { seal: statement.seal, signature, checks, ok: signature.ok && checks.every((check) => check.ok) };
}
