import { type Router, type Request, type Response } from 'express';
import {
  PAYMENT_COLUMNS,
  paymentCsvRows,
  periodOf,
  statementRequest,
  statementRows,
  writeCsv,
  writeSignedCsv,
  writeSignedJson,
  type StatementSigner,
} from '@hc/exports';
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
 * Streams rows to the browser as a file: the first row is read before the answer starts, so a refusal
 * (a bad filter, a service down) is still an error page; after that, a failure aborts the download
 * (the browser shows it incomplete) rather than ending it as if whole. Memory holds what is in flight:
 * csv-stringify and the socket apply backpressure up to the gRPC stream (docs/adr/0057).
 */
async function sendFile<Row>(
  res: Response,
  logger: Logger,
  file: { name: string; type: string },
  rows: AsyncIterable<Row>,
  write: (rows: AsyncIterable<Row>, out: Response) => Promise<void>,
): Promise<void> {
  const iterator = rows[Symbol.asyncIterator]();
  const first = await iterator.next();
  res.type(file.type).attachment(file.name);
  const all = (async function* () {
    if (!first.done) yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  })();
  try {
    await write(all, res);
  } catch (error) {
    logger.warn({ err: error, requestId: res.locals['requestId'] as string }, 'export ended early');
    res.destroy();
  }
}

const FORMATS = {
  csv: { type: 'text/csv; charset=utf-8', write: writeSignedCsv },
  json: { type: 'application/json; charset=utf-8', write: writeSignedJson },
} as const;

/**
 * The accountant's exports (docs/adr/0057), read from checkout over a server-streaming RPC, never
 * from its database: /payments.csv with the payments list's filters, one row per payment with the
 * settlement columns; /statement.csv?from=YYYY-MM-DD&to=YYYY-MM-DD, the payments paid in those UTC
 * days (by paid_at) with their locked USD values and totals per coin and payout wallet that add up,
 * and /statement.json, the same statement as JSON; both signed with the platform's statement key so
 * anyone can check them (docs/verifying-a-statement.md, docs/adr/0088). Without a key, no statement.
 */
export function exportRoutes(platform: PlatformClients, logger: Logger, signer: StatementSigner | undefined): Router {
  const router = signedInRouter('/dashboard/:mode');

  router.get('/payments.csv', async (req, res) => {
    const mode = modeOf(res);
    const payments = platform.checkoutAdmin.exportPayments(listFilters(req), callContext(res, mode));
    const rows = paymentCsvRows(payments);
    await sendFile(res, logger, { name: `payments-${mode}.csv`, type: FORMATS.csv.type }, rows, (all, out) =>
      writeCsv(all, PAYMENT_COLUMNS, out),
    );
  });

  /** The signed statement in one format (docs/adr/0088). */
  const statement = (format: keyof typeof FORMATS) => async (req: Request, res: Response) => {
    const mode = modeOf(res);
    const period = periodOf(query(req, 'from'), query(req, 'to'));
    if ('problem' in period) return renderProblem(res, 400, 'No such period', period.problem);
    if (!signer)
      return renderProblem(
        res,
        503,
        'Statements are not available',
        'Statements are signed, and this dashboard has no signing key (STATEMENT_SIGNING_KEY).',
      );
    const context = callContext(res, mode);
    const rows = statementRows(platform.checkoutAdmin.exportPayments(statementRequest(period), context));
    const [from, to] = [query(req, 'from'), query(req, 'to')];
    const header = { account: context.accountId, mode, from, to, created: new Date() };
    await sendFile(res, logger, { name: `statement-${mode}-${from}-${to}.${format}`, type: FORMATS[format].type }, rows, (all, out) =>
      FORMATS[format].write(all, header, signer, out),
    );
  };
  // One route per format, each named in full: the audit trail names an action by its route (action-routes.ts).
  router.get('/statement.csv', statement('csv'));
  router.get('/statement.json', statement('json'));

  return router;
}
