/** Operator CLI: `accounts …` and `keys …`, on the accounts context over gRPC (openAccountsOperator). */
import { unixSeconds } from '@hc/conversions';
import type { ApiKeyRecord, MerchantAccount } from '@hc/accounts';
import { need, parseMode } from './arguments.ts';
import type { OperatorCommand } from './operator-command.ts';

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

export const ACCOUNT_COMMANDS: OperatorCommand[] = [
  {
    words: 'accounts create',
    synopsis: '--name NAME [--payout-wallet WALLET] [--fee-bps N]',
    summary: 'Creates an active merchant account and prints it.',
    details: [
      'WALLET is the 0x… address Live payments settle to; without one, Live sessions are refused (no_payout_wallet).',
      'N is the platform fee in basis points (default 150 = 1.5%).',
    ],
    audited: true,
    async run({ ops, values }) {
      const feeBps = values['fee-bps'] === undefined ? undefined : Number(values['fee-bps']);
      return accountView(await ops.createAccount({ name: need(values.name, '--name'), payoutWallet: values['payout-wallet'], feeBps }));
    },
  },
  {
    words: 'accounts list',
    synopsis: '',
    summary: 'Lists every merchant account.',
    audited: false,
    run: async ({ ops }) => (await ops.listAccounts()).map(accountView),
  },
  {
    words: 'accounts show',
    synopsis: 'ACCOUNT_ID',
    summary: 'Prints one account.',
    audited: false,
    run: async ({ ops, args }) => accountView(await ops.getAccount(need(args[0], 'ACCOUNT_ID'))),
  },
  {
    words: 'accounts set-payout-wallet',
    synopsis: 'ACCOUNT_ID WALLET|none',
    summary: 'Sets the wallet Live payments settle to ("none" removes it).',
    details: [
      'Every payment started afterwards locks the new wallet, also from checkouts and payment links made before.',
      'Allowed on a suspended account (to fix its wallet before reactivating); the merchant’s dashboard is refused then.',
    ],
    audited: true,
    async run({ ops, args }) {
      const wallet = need(args[1], 'WALLET (or none)');
      return accountView(await ops.setPayoutWallet(need(args[0], 'ACCOUNT_ID'), wallet === 'none' ? null : wallet));
    },
  },
  {
    words: 'accounts suspend',
    synopsis: 'ACCOUNT_ID',
    summary: "Suspends an account: its keys' very next request is refused with 403 suspended.",
    details: [
      'Buyers can no longer pay it: its checkouts, payment links and hosted pages say it cannot take payments, and',
      'nothing new starts. Payments already paid or under way still settle. No new API key can be made meanwhile.',
    ],
    audited: true,
    run: async ({ ops, args }) => accountView(await ops.suspend(need(args[0], 'ACCOUNT_ID'))),
  },
  {
    words: 'accounts reactivate',
    synopsis: 'ACCOUNT_ID',
    summary: 'Reactivates a suspended account.',
    audited: true,
    run: async ({ ops, args }) => accountView(await ops.reactivate(need(args[0], 'ACCOUNT_ID'))),
  },
];

export const KEY_COMMANDS: OperatorCommand[] = [
  {
    words: 'keys create',
    synopsis: 'ACCOUNT_ID --mode test|live [--label LABEL]',
    summary: 'Makes an API key and prints its secret ONCE (only its sha256 hash is stored).',
    details: [
      'The key alone decides account and mode: sk_test_… keys see Test data only, sk_live_… keys Live data only.',
      'Refused for a suspended account (403 suspended): reactivate it first.',
    ],
    audited: true,
    async run({ ops, args, values }) {
      const { key, secret } = await ops.createKey(need(args[0], 'ACCOUNT_ID'), parseMode(values.mode), values.label);
      return { ...keyView(key), secret, notice: 'Store this key now: it is shown only once.' };
    },
  },
  {
    words: 'keys list',
    synopsis: 'ACCOUNT_ID',
    summary: "Lists an account's keys by hint (sk_test_…a1b2), never the secret.",
    audited: false,
    run: async ({ ops, args }) => (await ops.listKeys(need(args[0], 'ACCOUNT_ID'))).map(keyView),
  },
  {
    words: 'keys revoke',
    synopsis: 'KEY_ID',
    summary: 'Revokes a key: its very next request is refused with 401 invalid_api_key.',
    audited: true,
    run: async ({ ops, args }) => keyView(await ops.revokeKey(need(args[0], 'KEY_ID'))),
  },
];
