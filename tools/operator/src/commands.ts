/**
 * The operator CLI's one command table. Each command is one entry (an OperatorCommand, in its group's
 * module): its words, synopsis and help (rendered by help.ts for --help and usage errors), the
 * handler operator.ts dispatches to, and whether it is an action for the account's audit log
 * (operator-audit.ts). A new command is one entry, nothing else; the options it takes are those its
 * synopsis names (each must be in OPTIONS).
 */
import type { ParseArgsOptionsConfig } from 'node:util';
import { ACCOUNT_COMMANDS, KEY_COMMANDS } from './account-commands.ts';
import { CHECKOUT_COMMANDS } from './checkout-commands.ts';
import { CUSTOMER_COMMANDS } from './customer-commands.ts';
import { EMULATOR_COMMANDS } from './emulator-commands.ts';
import type { OperatorCommand } from './operator-command.ts';
import { PAYMENT_COMMANDS } from './payment-commands.ts';
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

/** The one command table: every command's words, help, handler and audit rule, group by group. */
export const OPERATOR_COMMANDS: readonly OperatorCommand[] = [
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
