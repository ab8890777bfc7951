#!/usr/bin/env node
/**
 * Operator CLI: what the merchant dashboard does with accounts and keys, for operators and scripts.
 * Talks to the services over gRPC, never through the API nor to a database: the accounts context for
 * accounts and keys (docs/adr/0085), the others for payments, customers and webhooks.
 *
 *   ./scripts/operator --help                      every command (src/commands.ts is the command table)
 *   ./scripts/operator accounts create --help      one command's usage and details
 *   ./scripts/operator emulator pay <account> <pay_id> --mode live --amount A …   (local emulator only)
 *
 * Every command takes --json for machine-readable output. Exit codes: 0 done, 1 refused, 2 usage.
 */
import { parseArgs } from 'node:util';
import { ApiError } from '@hc/errors';
import { openAccountsOperator } from '@hc/accounts';
import { loadGatewayConfig } from '@hc/gateway';
import { UsageError } from './arguments.ts';
import { OPERATOR_COMMANDS, OPTIONS, PROGRAM } from './commands.ts';
import { readCommandLine, usageFor } from './help.ts';
import { WRITTEN } from './export-commands.ts';
import type { CommandResult, OperatorCommand } from './operator-command.ts';
import { AuditUnavailableError, operatorActionOf, startOperatorAction } from './operator-audit.ts';

function text(value: CommandResult): string {
  const rows = Array.isArray(value) ? value : [value];
  if (rows.length === 0) return '(none)';
  return rows
    .map((row) =>
      Object.entries(row)
        .map(([k, v]) => `${k}: ${v === null ? '-' : String(v)}`)
        .join('\n'),
    )
    .join('\n\n');
}

type Parsed = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>;

const args = process.argv.slice(2);
const json = args.includes('--json');

function usageError(error: unknown): error is Error {
  return error instanceof UsageError || String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS_');
}

/** The command line and the command it names, or undefined once its help or its usage error has been printed. */
function commandLine(): (Parsed & { command: OperatorCommand }) | undefined {
  try {
    const parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS });
    const line = readCommandLine(PROGRAM, OPERATOR_COMMANDS, parsed.positionals, parsed.values);
    if (line.kind === 'run') return { ...parsed, command: line.spec };
    process.stdout.write(line.text);
  } catch (error) {
    if (!usageError(error)) throw error;
    process.stderr.write(
      `${error.message}\n${usageFor(
        PROGRAM,
        OPERATOR_COMMANDS,
        args.filter((a) => !a.startsWith('-')),
      )}`,
    );
    process.exitCode = 2;
  }
  return undefined;
}

const parsed = commandLine();
if (parsed) {
  const config = loadGatewayConfig();
  const ops = openAccountsOperator(config.ACCOUNTS_GRPC_ADDRESS, config.GRPC_TIMEOUT_MS);
  try {
    // Every action on an account goes into its audit log, done or refused (docs/adr/0056).
    const action = operatorActionOf(parsed.positionals, parsed.values);
    const walletBefore =
      action?.words === 'accounts set-payout-wallet' && action.accountId
        ? await ops.getAccount(action.accountId).then(
            (a) => a.payoutWallet,
            () => null,
          )
        : null;
    // Its line is written before it runs; no line, no action (docs/adr/0060).
    const started = action ? await startOperatorAction(action, walletBefore, config.GRPC_TIMEOUT_MS) : null;
    const { command, positionals, values } = parsed;
    const input = { ops, config, values, args: positionals.slice(command.words.split(' ').length) };
    const result = await command.run(input).catch(async (error: unknown) => {
      // Refused by the service, or by the command's own checks: done nothing, and the line says so.
      if (error instanceof ApiError) await started?.complete({ refusedWith: error.code });
      else if (usageError(error)) await started?.complete({ refusedWith: 'usage' });
      throw error;
    });
    await started?.complete({ result });
    if (result !== WRITTEN) process.stdout.write(`${json ? JSON.stringify(result, null, 2) : text(result)}\n`);
  } catch (error) {
    if (usageError(error)) {
      process.stderr.write(`${error.message}\n${usageFor(PROGRAM, OPERATOR_COMMANDS, parsed.positionals)}`);
      process.exitCode = 2;
    } else if (error instanceof AuditUnavailableError) {
      process.stderr.write(`error: ${error.message}\n`);
      process.exitCode = 1;
    } else if (error instanceof ApiError) {
      process.stderr.write(json ? `${JSON.stringify(error.toBody())}\n` : `error: ${error.message} (${error.code})\n`);
      process.exitCode = 1;
    } else {
      throw error;
    }
  } finally {
    ops.close();
  }
}
