export { ChainReadError, type ChainReader, type ChainTransaction, type ChainTransfer } from './chain.ts';
export { checkLine, type LineCheck } from './check-lines.ts';
export { runVerifyStatement, type VerifyStatementOptions } from './command.ts';
export { emulatorChain } from './emulator-chain.ts';
export {
  csvSignatureRow,
  readCsvStatement,
  readJsonStatement,
  readStatement,
  type ReadStatement,
  type StatementRecord,
} from './formats.ts';
export { ERC20_TRANSFER_TOPIC, POLYGON_TOKENS, polygonRpcChain, type TokenContract } from './polygon-rpc.ts';
export {
  canonicalJson,
  checkedSeal,
  SEAL_FIELDS,
  sealBytes,
  sha256Hex,
  STATEMENT_SEAL_VERSION,
  StatementFormatError,
  type StatementFormat,
  type StatementSeal,
} from './seal.ts';
export {
  loadStatementKeys,
  STATEMENT_KEYS_PATH,
  statementKeysFromJwks,
  verifyStatementSignature,
  type SignatureVerdict,
  type StatementKeys,
} from './signature.ts';
export { verifyStatement, type StatementReport } from './verify.ts';
