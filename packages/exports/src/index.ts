export { spreadsheetSafe, writeCsv } from './csv.ts';
export { PAYMENT_COLUMNS, feeInCoin, paymentCsvRow, statusName } from './payment-export.ts';
export type { ExportedPayment, PaymentCsvRow } from './payment-export.ts';
export { STATEMENT_COLUMNS, StatementTotals, periodOf, statementRequest, statementRow, statementRows } from './statement.ts';
export type { Period, StatementRow } from './statement.ts';
