import { type Router, type Request, type Response } from 'express';
import { PAYMENT_COLUMNS, paymentCsvRow, periodOf, STATEMENT_COLUMNS, statementRequest, statementRows, writeCsv } from '@hc/exports';
import type { Logger } from '@hc/logging';
import { PAYMENT_STATUSES } from '../../domain/format.ts';
import { modeOf } from './mode.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { renderProblem } from './render.ts';
import { callContext } from './session.ts';
import { signedInRouter } from './routers.ts';

function query(req: Request, name: string): string {
  const value = req.query[name];
  return typeof value === 'string' ? value.trim().slice(0, 254) : '';
}

/** The payments list's filters as the list page reads them (status, and `q`: an email or a reference). */
function listFilters(req: Request) {
  const status = (PAYMENT_STATUSES as readonly string[]).includes(query(req, 'status')) ? query(req, 'status') : undefined;
  const search = query(req, 'q');
  return { status, ...(search.includes('@') ? { customerEmail: search } : search ? { reference: search } : {}) };
}

/**
 * Streams rows to the browser as CSV: the first row is read before the answer starts, so a refusal
 * (a bad filter, a service down) is still an error page; after that, a failure aborts the download
 * (the browser shows it incomplete) rather than ending it as if whole. Memory holds what is in flight:
 * csv-stringify and the socket apply backpressure up to the gRPC stream (docs/adr/0057).
 */
async function sendCsv(
  res: Response,
  logger: Logger,
  filename: string,
  columns: readonly string[],
  rows: AsyncIterable<Record<string, string>>,
): Promise<void> {
  const iterator = rows[Symbol.asyncIterator]();
  const first = await iterator.next();
  res.type('text/csv; charset=utf-8').attachment(filename);
  const all = (async function* () {
    if (!first.done) yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
  try {
    await writeCsv(all, columns, res);
  } catch (error) {
    logger.warn({ err: error, requestId: res.locals['requestId'] as string }, 'CSV export ended early');
    res.destroy();
  }
}

/**
 * The accountant's exports (docs/adr/0057), read from checkout over a server-streaming RPC, never
 * from its database: /payments.csv with the payments list's filters, one row per payment with the
 * settlement columns; /statement.csv?from=YYYY-MM-DD&to=YYYY-MM-DD, the payments paid in those UTC
 * days (by paid_at) with their locked USD values and totals per coin and payout wallet that add up.
 */
export function exportRoutes(platform: PlatformClients, logger: Logger): Router {
  const router = signedInRouter('/dashboard/:mode');

  router.get('/payments.csv', async (req, res) => {
    const mode = modeOf(res);
    const payments = platform.checkoutAdmin.exportPayments(listFilters(req), callContext(res, mode));
    const rows = (async function* () {
      for await (const { payment } of payments) if (payment) yield paymentCsvRow(payment);
    })();
    await sendCsv(res, logger, `payments-${mode}.csv`, PAYMENT_COLUMNS, rows);
  });

  router.get('/statement.csv', async (req, res) => {
    const mode = modeOf(res);
    const period = periodOf(query(req, 'from'), query(req, 'to'));
    if ('problem' in period) return renderProblem(res, 400, 'No such period', period.problem);
    const rows = statementRows(platform.checkoutAdmin.exportPayments(statementRequest(period), callContext(res, mode)));
    await sendCsv(res, logger, `statement-${mode}-${query(req, 'from')}-${query(req, 'to')}.csv`, STATEMENT_COLUMNS, rows);
  });

  return router;
}
