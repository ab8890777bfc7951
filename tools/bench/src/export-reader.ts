/**
 * One side of bench-export.ts: reads checkout's ExportPayments stream for an account and
 * writes the payments CSV to stdout exactly as the dashboard and the operator CLI do (@hc/exports),
 * or, with `collect`, the naive way: every row gathered into memory first, then written. Prints its
 * row count and peak RSS (process.resourceUsage().maxRSS) as JSON on stderr at the end.
 *
 *   node tools/bench/src/export-reader.ts ADDRESS ACCOUNT_ID stream|collect [limit]
 */
import { exportedPayment, PAYMENT_COLUMNS, paymentCsvRow, writeCsv, type PaymentCsvRow } from '@hc/exports';
import { createServiceClient } from '@hc/grpc';
import { CheckoutAdminService } from '@hc/proto/checkout/v1';

const [address, accountId, how = 'stream', limitText] = process.argv.slice(2);
if (!address || !accountId) throw new Error('usage: export-reader.ts ADDRESS ACCOUNT_ID stream|collect [limit]');
const limit = limitText === undefined ? Infinity : Number(limitText);
const client = createServiceClient(CheckoutAdminService, address);
const ctx = { accountId, livemode: false, requestId: 'req_bench_export' };
let rows = 0;

async function* csvRows(): AsyncGenerator<PaymentCsvRow> {
  for await (const answer of client.exportPayments({}, ctx)) {
    const payment = exportedPayment(answer);
    if (!payment) continue;
    rows += 1;
    yield paymentCsvRow(payment);
    if (rows >= limit) return;
  }
}

const started = performance.now();
if (how === 'collect') {
  const all: PaymentCsvRow[] = [];
  for await (const row of csvRows()) all.push(row);
  await writeCsv(
    (async function* () {
      yield* all;
    })(),
    PAYMENT_COLUMNS,
    process.stdout,
  );
} else {
  await writeCsv(csvRows(), PAYMENT_COLUMNS, process.stdout);
}
client.close();
process.stderr.write(
  `${JSON.stringify({ rows, seconds: (performance.now() - started) / 1000, maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`,
);
