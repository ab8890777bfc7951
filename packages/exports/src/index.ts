export { csvStringifier, spreadsheetSafe, writeCsv } from './csv.ts';
export { PAYMENT_COLUMNS, exportedPayment, feeInCoin, paymentCsvRow, paymentCsvRows } from './payment-export.ts';
export type { ExportAnswer, ExportedPayment, PaymentCsvRow } from './payment-export.ts';
export { STATEMENT_COLUMNS, StatementTotals, periodOf, statementRequest, statementRow, statementRows } from './statement.ts';
export type { Period, StatementRow } from './statement.ts';
export { writeSignedCsv, writeSignedJson } from './signed-statement.ts';
export type { StatementHeader } from './signed-statement.ts';
export {
  newStatementKey,
  parsePublicKeys,
  parseSigningKey,
  publicKeyEntry,
  StatementKeyError,
  statementKeysDocument,
} from './statement-keys.ts';
export type { StatementSigner } from './statement-keys.ts';
