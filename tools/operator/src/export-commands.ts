/**
 * Operator CLI: `payments export` and `payments statement` — the dashboard's exports (docs/adr/0057)
 * as CSV on stdout, read from checkout's ExportPayments server-streaming RPC a row at a time and
 * written as stdout takes them (a 100,000-payment export holds only what is in flight). The same rows
 * as the dashboard's files (@hc/exports).
 */
import {
  PAYMENT_COLUMNS,
  parseSigningKey,
  paymentCsvRows,
  periodOf,
  STATEMENT_COLUMNS,
  statementRequest,
  statementRows,
  writeCsv,
  writeSignedCsv,
} from '@hc/exports';
import { unixSecondsBig } from '@hc/conversions';
import { need, UsageError } from './arguments.ts';
import { withAccountAdmin, type CheckoutAdminCall } from './checkout-admin.ts';
import type { OperatorCommand } from './operator-command.ts';

const M = '--mode test|live';

export const EXPORT_COMMANDS: OperatorCommand[] = [
  {
    words: 'payments export',
    synopsis: `ACCOUNT_ID ${M} [--status S] [--reference R] [--email E] [--from YYYY-MM-DD --to YYYY-MM-DD]`,
    summary: 'Writes the payments as CSV to stdout: the API fields and the settlement columns, newest first.',
    details: ['The dashboard’s list filters; --from/--to narrow to payments created in those UTC days (both included).'],
    audited: true,
    run: (input) => withAccountAdmin(input, writePayments),
  },
  {
    words: 'payments statement',
    synopsis: `ACCOUNT_ID ${M} --from YYYY-MM-DD --to YYYY-MM-DD`,
    summary: 'Writes the settlement statement of a period as CSV: each payment paid in it, then totals per coin and payout wallet.',
    details: [
      'A payment is in the period of the UTC day it was paid (not created); usd_value is the value settlement locked at start.',
      'Totals add up: arrived = fee + forwarded; the forwarded totals are what reached the payout wallets.',
      'Signed as the dashboard signs it when STATEMENT_SIGNING_KEY is set (docs/verifying-a-statement.md); otherwise unsigned, and it says so on stderr.',
    ],
    audited: true,
    run: (input) => withAccountAdmin(input, writeStatement),
  },
];

/** The command printed its answer itself (CSV on stdout): nothing more to print. */
export const WRITTEN = Object.freeze({ written: true });

interface ExportValues {
  mode?: string | undefined;
  status?: string | undefined;
  reference?: string | undefined;
  email?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

function period(values: ExportValues): { createdGte?: bigint; createdLt?: bigint } {
  if (values.from === undefined && values.to === undefined) return {};
  const found = periodOf(need(values.from, '--from YYYY-MM-DD'), need(values.to, '--to YYYY-MM-DD'));
  if ('problem' in found) throw new UsageError(`--${found.field}: ${found.problem}`);
  return { createdGte: unixSecondsBig(found.from), createdLt: unixSecondsBig(found.until) };
}

async function writePayments({ admin, ctx, values }: CheckoutAdminCall): Promise<typeof WRITTEN> {
  const payments = admin.exportPayments(
    { status: values.status, reference: values.reference, customerEmail: values.email, ...period(values) },
    ctx,
  );
  const rows = paymentCsvRows(payments);
  await writeCsv(rows, PAYMENT_COLUMNS, process.stdout);
  return WRITTEN;
}

async function writeStatement({ admin, ctx, values }: CheckoutAdminCall): Promise<typeof WRITTEN> {
  const found = periodOf(need(values.from, '--from YYYY-MM-DD'), need(values.to, '--to YYYY-MM-DD'));
  if ('problem' in found) throw new UsageError(`--${found.field}: ${found.problem}`);
  // By the moment each payment was paid: one made before midnight and paid after is the next day's.
  const rows = statementRows(admin.exportPayments(statementRequest(found), ctx));
  const key = process.env['STATEMENT_SIGNING_KEY']?.trim();
  if (!key) {
    // An operator's working copy: the merchant's proof is the dashboard's signed download (docs/adr/0088).
    process.stderr.write('operator: STATEMENT_SIGNING_KEY is not set: this statement is not signed\n');
    await writeCsv(rows, STATEMENT_COLUMNS, process.stdout);
    return WRITTEN;
  }
  const header = {
    account: ctx.accountId,
    mode: ctx.livemode ? ('live' as const) : ('test' as const),
    from: values.from!,
    to: values.to!,
    created: new Date(),
  };
  await writeSignedCsv(rows, header, parseSigningKey(key), process.stdout);
  return WRITTEN;
}
