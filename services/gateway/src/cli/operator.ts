#!/usr/bin/env node
/**
 * Operator CLI: what the merchant dashboard does with accounts and keys, for operators and scripts.
 * Talks to the gateway's own database (the gateway owns accounts and keys), never through the API.
 *
 *   pnpm operator accounts create --name "Shop" [--payout-wallet 0x…] [--fee-bps 150]
 *   pnpm operator accounts list | show <account>
 *   pnpm operator accounts set-payout-wallet <account> <wallet|none>
 *   pnpm operator accounts suspend|reactivate <account>
 *   pnpm operator keys create <account> --mode test|live [--label "CI"]   (prints the key once)
 *   pnpm operator keys list <account>
 *   pnpm operator keys revoke <key_id>
 *   pnpm operator payments accept-held <account> <pay_id> --mode test|live   (calls checkout over gRPC)
 *   pnpm operator customers erase <account> <cus_id> --mode test|live       (irreversible; customers gRPC)
 *   pnpm operator customers note <account> <cus_id> --mode test|live [--set TEXT]
 *   pnpm operator emulator pay <account> <pay_id> --mode live --amount A [--coin …] [--forward-to W]
 *        [--reuse-txid-of PAY_ID] [--notice on-time|late|never|mismatch|duplicate]   (EMULATOR_URL, local only)
 *   pnpm operator webhooks …   (endpoints, events, attempts, resend, ping: see cli/webhook-commands.ts)
 *
 * Every command takes --json for machine-readable output. Exit codes: 0 done, 1 refused, 2 usage.
 */
import { parseArgs } from 'node:util';
import { EmulatorRefusal, payThroughEmulator, type PayOptions } from '@hc/emulator';
import { ApiError } from '@hc/errors';
import { createServiceClient } from '@hc/grpc';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';
import { customerObject } from '../http/presenters/customer.ts';
import { need, operatorContext, parseMode, UsageError } from './arguments.ts';
import { runWebhookCommand, splitWebhookArguments, USAGE as WEBHOOK_USAGE } from './webhook-commands.ts';
import { paymentObject } from '../http/presenters/payment.ts';
import type { ApiKeyRecord, MerchantAccount } from '../domain/merchant-account.ts';
import { loadGatewayConfig, type GatewayConfig } from '../config.ts';
import { MerchantStore } from '../store/merchant-store.ts';
import { createGatewayPrisma } from '../store/prisma.ts';
import { MerchantOperations } from '../use-cases/merchant-operations.ts';

const USAGE = `usage: operator <accounts|keys|payments|customers|emulator|webhooks> <command> [arguments] [--json]
  accounts create --name NAME [--payout-wallet WALLET] [--fee-bps N]
  accounts list
  accounts show ACCOUNT_ID
  accounts set-payout-wallet ACCOUNT_ID WALLET|none
  accounts suspend ACCOUNT_ID
  accounts reactivate ACCOUNT_ID
  keys create ACCOUNT_ID --mode test|live [--label LABEL]
  keys list ACCOUNT_ID
  keys revoke KEY_ID
  payments accept-held ACCOUNT_ID PAYMENT_ID --mode test|live
  customers erase ACCOUNT_ID CUSTOMER_ID --mode test|live   (irreversible)
  customers note ACCOUNT_ID CUSTOMER_ID --mode test|live [--set TEXT]   (private; empty TEXT clears)
  emulator pay ACCOUNT_ID PAYMENT_ID --mode live --amount A [--coin polygon_usdc|polygon_usdt] [--forward-to WALLET]
      [--to-address ADDRESS] [--reuse-txid-of PAYMENT_ID] [--notice on-time|late|never|mismatch|duplicate]
${WEBHOOK_USAGE.split('\n').slice(1).join('\n')}`;

function accountView(a: MerchantAccount): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    status: a.status,
    payout_wallet: a.payoutWallet,
    fee_bps: a.feeBps,
    created: Math.floor(a.createdAt.getTime() / 1000),
  };
}

function keyView(k: ApiKeyRecord): Record<string, unknown> {
  return {
    id: k.id,
    account: k.accountId,
    mode: k.mode,
    hint: k.hint,
    label: k.label,
    created: Math.floor(k.createdAt.getTime() / 1000),
    revoked: k.revokedAt ? Math.floor(k.revokedAt.getTime() / 1000) : null,
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

async function run(
  ops: MerchantOperations,
  config: GatewayConfig,
  args: string[],
): Promise<Record<string, unknown> | Record<string, unknown>[]> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'payout-wallet': { type: 'string' },
      'fee-bps': { type: 'string' },
      mode: { type: 'string' },
      label: { type: 'string' },
      set: { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
      description: { type: 'string' },
      endpoint: { type: 'string' },
      limit: { type: 'string' },
      'starting-after': { type: 'string' },
      amount: { type: 'string' },
      coin: { type: 'string' },
      'forward-to': { type: 'string' },
      'to-address': { type: 'string' },
      'reuse-txid-of': { type: 'string' },
      notice: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
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
    case 'customers erase':
    case 'customers note': {
      const mode = parseMode(values.mode);
      const account = await ops.getAccount(need(first, 'ACCOUNT_ID'));
      const id = need(second, 'CUSTOMER_ID');
      const ctx = operatorContext(account.id, mode);
      const customers = createServiceClient(CustomersService, config.CUSTOMERS_GRPC_ADDRESS, { timeoutMs: config.GRPC_TIMEOUT_MS });
      try {
        if (command === 'erase') {
          const { customer } = await customers.eraseCustomer({ id }, ctx);
          if (!customer) throw new ApiError('internal_error');
          return customerObject(customer) as unknown as Record<string, unknown>;
        }
        if (values.set !== undefined) await customers.setCustomerNote({ id, note: values.set }, ctx);
        const { note } = await customers.getCustomerNote({ id }, ctx);
        return { customer: id, note: note ?? null };
      } finally {
        customers.close();
      }
    }
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
const config = loadGatewayConfig();
const prisma = createGatewayPrisma(config.GATEWAY_DATABASE_URL);
try {
  const result = await run(new MerchantOperations(new MerchantStore(prisma)), config, args);
  process.stdout.write(`${json ? JSON.stringify(result, null, 2) : text(result)}\n`);
} catch (error) {
  if (error instanceof UsageError || String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS_')) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
  } else if (error instanceof ApiError) {
    process.stderr.write(json ? `${JSON.stringify(error.toBody())}\n` : `error: ${error.message} (${error.code})\n`);
    process.exitCode = 1;
  } else {
    throw error;
  }
} finally {
  await prisma.$disconnect();
}
