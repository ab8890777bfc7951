#!/usr/bin/env node
/**
 * Operator CLI: what the merchant dashboard does with accounts and keys, for operators and scripts.
 * Talks to the gateway's own database (the gateway owns accounts and keys), never through the API,
 * and to the services over gRPC for payments, customers and webhooks.
 *
 *   ./scripts/operator --help                      every command (src/commands.ts is the catalogue)
 *   ./scripts/operator accounts create --help      one command's usage and details
 *   ./scripts/operator emulator pay <account> <pay_id> --mode live --amount A …   (local emulator only)
 *
 * Every command takes --json for machine-readable output. Exit codes: 0 done, 1 refused, 2 usage.
 */
import { parseArgs } from 'node:util';
import { EmulatorRefusal, payThroughEmulator, type PayOptions } from '@hc/emulator';
import { ApiError } from '@hc/errors';
import {
  customerObject,
  loadGatewayConfig,
  openMerchantAccounts,
  paymentObject,
  type ApiKeyRecord,
  type GatewayConfig,
  type MerchantAccount,
  type MerchantOperations,
} from '@hc/gateway';
import { checkoutWritesBarrier, createServiceClient } from '@hc/grpc';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';
import { need, operatorContext, parseMode, UsageError } from './arguments.ts';
import { OPERATOR_COMMANDS, OPTIONS, PROGRAM } from './commands.ts';
import { readCommandLine, usageFor } from './help.ts';
import { runCheckoutCommand } from './checkout-commands.ts';
import { runLinkCommand } from './link-commands.ts';
import { runWebhookCommand, splitWebhookArguments } from './webhook-commands.ts';
import { createDashboardUser } from './user-commands.ts';
import { unixSeconds } from '@hc/conversions';
import { runExportCommand, WRITTEN } from './export-commands.ts';
import { AuditUnavailableError, operatorActionOf, startOperatorAction } from './operator-audit.ts';

/** How long the operator's customers commands wait for answered writes and for the erasure to propagate. */
const OPERATOR_WAIT_MS = 10_000;

function accountView(a: MerchantAccount): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    status: a.status,
    payout_wallet: a.payoutWallet,
    fee_bps: a.feeBps,
    created: unixSeconds(a.createdAt),
  };
}

function keyView(k: ApiKeyRecord): Record<string, unknown> {
  return {
    id: k.id,
    account: k.accountId,
    mode: k.mode,
    hint: k.hint,
    label: k.label,
    created: unixSeconds(k.createdAt),
    revoked: k.revokedAt ? unixSeconds(k.revokedAt) : null,
  };
}

function text(value: Record<string, unknown> | Record<string, unknown>[]): string {
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

async function run(
  ops: MerchantOperations,
  config: GatewayConfig,
  { values, positionals }: Parsed,
): Promise<Record<string, unknown> | Record<string, unknown>[]> {
  const [group, command, first, second] = positionals;
  if (group === 'webhooks') {
    const split = splitWebhookArguments(positionals.slice(1));
    const account = await ops.getAccount(need(split.accountId, 'ACCOUNT_ID'));
    return runWebhookCommand(split.command, split.positionals, values, {
      accountId: account.id,
      webhooksAddress: config.WEBHOOKS_GRPC_ADDRESS,
      timeoutMs: config.GRPC_TIMEOUT_MS,
    });
  }
  if (group === 'links' || group === 'checkouts') {
    const account = await ops.getAccount(need(first, 'ACCOUNT_ID'));
    const run = group === 'links' ? runLinkCommand : runCheckoutCommand;
    return run(command, account, second, values, {
      checkoutAddress: config.CHECKOUT_GRPC_ADDRESS,
      timeoutMs: config.GRPC_TIMEOUT_MS,
    });
  }
  switch (`${group} ${command}`) {
    case 'accounts create': {
      const feeBps = values['fee-bps'] === undefined ? undefined : Number(values['fee-bps']);
      return accountView(await ops.createAccount({ name: need(values.name, '--name'), payoutWallet: values['payout-wallet'], feeBps }));
    }
    case 'accounts list':
      return (await ops.listAccounts()).map(accountView);
    case 'accounts show':
      return accountView(await ops.getAccount(need(first, 'ACCOUNT_ID')));
    case 'accounts set-payout-wallet': {
      const wallet = need(second, 'WALLET (or none)');
      return accountView(await ops.setPayoutWallet(need(first, 'ACCOUNT_ID'), wallet === 'none' ? null : wallet));
    }
    case 'accounts suspend':
      return accountView(await ops.suspend(need(first, 'ACCOUNT_ID')));
    case 'accounts reactivate':
      return accountView(await ops.reactivate(need(first, 'ACCOUNT_ID')));
    case 'keys create': {
      const { key, secret } = await ops.createKey(need(first, 'ACCOUNT_ID'), parseMode(values.mode), values.label);
      return { ...keyView(key), secret, notice: 'Store this key now: it is shown only once.' };
    }
    case 'keys list':
      return (await ops.listKeys(need(first, 'ACCOUNT_ID'))).map(keyView);
    case 'keys revoke':
      return keyView(await ops.revokeKey(need(first, 'KEY_ID')));
    case 'payments accept-held': {
      const mode = parseMode(values.mode);
      const account = await ops.getAccount(need(first, 'ACCOUNT_ID'));
      const checkout = createServiceClient(CheckoutService, config.CHECKOUT_GRPC_ADDRESS, { timeoutMs: config.GRPC_TIMEOUT_MS });
      try {
        const { payment } = await checkout.acceptHeldPayment({ id: need(second, 'PAYMENT_ID') }, operatorContext(account.id, mode));
        if (!payment) throw new ApiError('internal_error');
        return paymentObject(payment) as unknown as Record<string, unknown>;
      } finally {
        checkout.close();
      }
    }
    case 'payments timeline': {
      const mode = parseMode(values.mode);
      const account = await ops.getAccount(need(first, 'ACCOUNT_ID'));
      const checkout = createServiceClient(CheckoutService, config.CHECKOUT_GRPC_ADDRESS, { timeoutMs: config.GRPC_TIMEOUT_MS });
      try {
        const { entries } = await checkout.getPaymentTimeline({ id: need(second, 'PAYMENT_ID') }, operatorContext(account.id, mode));
        return entries.map((e) => ({
          source: e.source,
          kind: e.kind,
          at: new Date(Number(e.at)).toISOString(),
          detail: JSON.parse(e.detailJson) as Record<string, unknown>,
        }));
      } finally {
        checkout.close();
      }
    }
    case 'customers erase':
    case 'customers note': {
      const mode = parseMode(values.mode);
      const account = await ops.getAccount(need(first, 'ACCOUNT_ID'));
      const id = need(second, 'CUSTOMER_ID');
      const ctx = operatorContext(account.id, mode);
      // An operator waits longer than an API read: an erase also waits for checkout and webhooks to apply it.
      const waitMs = Math.max(config.CUSTOMERS_READ_WAIT_MS, OPERATOR_WAIT_MS);
      const timeoutMs = config.GRPC_TIMEOUT_MS + waitMs;
      const customers = createServiceClient(CustomersService, config.CUSTOMERS_GRPC_ADDRESS, { timeoutMs });
      const checkout = createServiceClient(CheckoutService, config.CHECKOUT_GRPC_ADDRESS, { timeoutMs });
      try {
        // Read-your-writes (docs/adr/0011): a customer made by a create the merchant was just answered is found.
        const barrier = await checkoutWritesBarrier(checkout, ctx, waitMs);
        if (command === 'erase') {
          // Answered only once checkout and webhooks have applied the erasure too.
          const { customer } = await customers.eraseCustomer({ id, barrier }, ctx);
          if (!customer) throw new ApiError('internal_error');
          return customerObject(customer) as unknown as Record<string, unknown>;
        }
        if (values.set !== undefined) await customers.setCustomerNote({ id, note: values.set, barrier }, ctx);
        const { note } = await customers.getCustomerNote({ id, barrier }, ctx);
        return { customer: id, note: note ?? null };
      } finally {
        customers.close();
        checkout.close();
      }
    }
    case 'payments export':
    case 'payments statement':
      return runExportCommand(command === 'export' ? 'export' : 'statement', await ops.getAccount(need(first, 'ACCOUNT_ID')), values, {
        checkoutAddress: config.CHECKOUT_GRPC_ADDRESS,
        timeoutMs: config.GRPC_TIMEOUT_MS,
      });
    case 'users create':
      return createDashboardUser(await ops.getAccount(need(first, 'ACCOUNT_ID')), values, { timeoutMs: config.GRPC_TIMEOUT_MS });
    case 'emulator pay': {
      // The local processor emulator (services/emulator): a buyer pays a Live payment.
      if (parseMode(values.mode) !== 'live') throw new UsageError('emulator pay is for Live payments: --mode live');
      await ops.getAccount(need(first, 'ACCOUNT_ID'));
      const emulatorUrl = process.env['EMULATOR_URL'] ?? 'http://127.0.0.1:8090';
      try {
        const result = await payThroughEmulator(emulatorUrl, need(second, 'PAYMENT_ID'), {
          amount: need(values.amount, '--amount'),
          coin: values.coin as PayOptions['coin'],
          forwardTo: values['forward-to'],
          toAddress: values['to-address'],
          reuseTxidOf: values['reuse-txid-of'],
          notice: values.notice as PayOptions['notice'],
        });
        return result as unknown as Record<string, unknown>;
      } catch (error) {
        if (error instanceof EmulatorRefusal) throw new UsageError(`emulator refused: ${error.message}`);
        throw error;
      }
    }
    default:
      throw new UsageError(`unknown command: ${positionals.join(' ') || '(none)'}`);
  }
}

const args = process.argv.slice(2);
const json = args.includes('--json');

function usageError(error: unknown): error is Error {
  return error instanceof UsageError || String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS_');
}

/** The command line, or undefined once its help or its usage error has been printed. */
function commandLine(): Parsed | undefined {
  try {
    const parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS });
    const line = readCommandLine(PROGRAM, OPERATOR_COMMANDS, parsed.positionals, parsed.values);
    if (line.kind === 'run') return parsed;
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
  const accounts = openMerchantAccounts(config.GATEWAY_DATABASE_URL);
  try {
    const ops = accounts.operations;
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
    const result = await run(ops, config, parsed).catch(async (error: unknown) => {
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
    await accounts.close();
  }
}
