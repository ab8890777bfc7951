/**
 * Every command of the operator CLI with its help (see help.ts). A new command is one entry
 * here plus its case in operator.ts (or its own module's dispatcher); the options it takes are those
 * its synopsis names (each must be in OPTIONS), and `operator … --help` prints the entry.
 */
import type { ParseArgsOptionsConfig } from 'node:util';
import type { CommandSpec } from './help.ts';
import { CHECKOUT_COMMANDS } from './checkout-commands.ts';
import { LINK_COMMANDS } from './link-commands.ts';
import { USER_COMMANDS } from './user-commands.ts';
import { EXPORT_COMMANDS } from './export-commands.ts';
import { WEBHOOK_COMMANDS } from './webhook-commands.ts';

export const PROGRAM = 'operator';

/** Every option any command takes; which command takes which is read from its synopsis (help.ts). */
export const OPTIONS = {
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
  currency: { type: 'string' },
  'customer-name': { type: 'string' },
  memo: { type: 'string' },
  email: { type: 'string' },
  reference: { type: 'string' },
  lifetime: { type: 'string' },
  kind: { type: 'string' },
  'min-amount': { type: 'string' },
  'max-amount': { type: 'string' },
  plans: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  role: { type: 'string' },
  status: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsOptionsConfig;

const ACCOUNT_COMMANDS: CommandSpec[] = [
  {
    words: 'accounts create',
    synopsis: '--name NAME [--payout-wallet WALLET] [--fee-bps N]',
    summary: 'Creates an active merchant account and prints it.',
    details: [
      'WALLET is the 0x… address Live payments settle to; without one, Live sessions are refused (no_payout_wallet).',
      'N is the platform fee in basis points (default 150 = 1.5%).',
    ],
  },
  { words: 'accounts list', synopsis: '', summary: 'Lists every merchant account.' },
  { words: 'accounts show', synopsis: 'ACCOUNT_ID', summary: 'Prints one account.' },
  {
    words: 'accounts set-payout-wallet',
    synopsis: 'ACCOUNT_ID WALLET|none',
    summary: 'Sets the wallet Live payments settle to ("none" removes it).',
    details: [
      'Every payment started afterwards locks the new wallet, also from checkouts and payment links made before.',
      'Allowed on a suspended account (to fix its wallet before reactivating); the merchant’s dashboard is refused then.',
    ],
  },
  {
    words: 'accounts suspend',
    synopsis: 'ACCOUNT_ID',
    summary: "Suspends an account: its keys' very next request is refused with 403 suspended.",
    details: [
      'Buyers can no longer pay it: its checkouts, payment links and hosted pages say it cannot take payments, and',
      'nothing new starts. Payments already paid or under way still settle. No new API key can be made meanwhile.',
    ],
  },
  { words: 'accounts reactivate', synopsis: 'ACCOUNT_ID', summary: 'Reactivates a suspended account.' },
];

const KEY_COMMANDS: CommandSpec[] = [
  {
    words: 'keys create',
    synopsis: 'ACCOUNT_ID --mode test|live [--label LABEL]',
    summary: 'Makes an API key and prints its secret ONCE (only its sha256 hash is stored).',
    details: [
      'The key alone decides account and mode: sk_test_… keys see Test data only, sk_live_… keys Live data only.',
      'Refused for a suspended account (403 suspended): reactivate it first.',
    ],
  },
  { words: 'keys list', synopsis: 'ACCOUNT_ID', summary: "Lists an account's keys by hint (sk_test_…a1b2), never the secret." },
  { words: 'keys revoke', synopsis: 'KEY_ID', summary: 'Revokes a key: its very next request is refused with 401 invalid_api_key.' },
];

const PAYMENT_COMMANDS: CommandSpec[] = [
  {
    words: 'payments accept-held',
    synopsis: 'ACCOUNT_ID PAYMENT_ID --mode test|live',
    summary: 'Accepts a held payment as paid on the merchant’s behalf (through the checkout service).',
    details: ['Refused unless the payment is held; prints the payment as the API shows it.'],
  },
  {
    words: 'payments timeline',
    synopsis: 'ACCOUNT_ID PAYMENT_ID --mode test|live',
    summary: 'Prints what happened to a payment and its money, oldest first (never shown in the API or webhooks).',
    details: [
      'Checkout lines (created, started, canceled, expired, accepted_by_merchant) merged with settlement lines',
      '(address_assigned, transfer_seen_on_chain, notice_received, notice_rejected, notice_duplicate, notice_mismatch, verdict, forwarded).',
      'Each line: source, kind, at (ISO 8601), detail. Another account or mode: not_found.',
    ],
  },
];

const EMULATOR_COMMANDS: CommandSpec[] = [
  {
    words: 'emulator pay',
    synopsis:
      'ACCOUNT_ID PAYMENT_ID --mode live --amount A [--coin polygon_usdc|polygon_usdt] [--forward-to WALLET] [--to-address ADDRESS] [--reuse-txid-of PAYMENT_ID] [--notice on-time|late|never|mismatch|duplicate|out-of-order]',
    summary: 'Local Live mode only: a buyer pays a started Live payment through the processor emulator (services/emulator).',
    details: [
      'A is what arrives at the deposit address, in the coin; the emulator asks settlement where to forward (the account’s payout wallet at that moment), forwards it less the fee there (or to WALLET) and sends the signed notice as --notice says.',
      'Reads EMULATOR_URL (default http://127.0.0.1:8090).',
    ],
  },
];

const CUSTOMER_COMMANDS: CommandSpec[] = [
  {
    words: 'customers erase',
    synopsis: 'ACCOUNT_ID CUSTOMER_ID --mode test|live',
    summary: 'Erases a buyer’s personal data everywhere the platform keeps it. IRREVERSIBLE.',
    details: ['Counters and order amounts stay; the email, name, phone, addresses and note are removed.'],
  },
  {
    words: 'customers note',
    synopsis: 'ACCOUNT_ID CUSTOMER_ID --mode test|live [--set TEXT]',
    summary: 'Prints a customer’s private note, or replaces it with --set (an empty TEXT clears it).',
    details: ['The note is for the merchant’s staff: it never appears in the API.'],
  },
];

export const OPERATOR_COMMANDS: readonly CommandSpec[] = [
  ...ACCOUNT_COMMANDS,
  ...KEY_COMMANDS,
  ...PAYMENT_COMMANDS,
  ...EXPORT_COMMANDS,
  ...LINK_COMMANDS,
  ...CHECKOUT_COMMANDS,
  ...CUSTOMER_COMMANDS,
  ...EMULATOR_COMMANDS,
  ...WEBHOOK_COMMANDS,
  ...USER_COMMANDS,
];
