/**
 * Operator CLI: the `checkouts …` commands (dashboard checkouts, `chk_`: docs/payment-links.md), over
 * gRPC to the checkout context's admin service, which the merchant API never reaches.
 */
import { ApiError } from '@hc/errors';
import type { Checkout } from '@hc/proto/checkout/v1';
import { need } from './arguments.ts';
import { creatingAccount, listLimit, withAccountAdmin } from './checkout-admin.ts';
import type { OperatorCommand } from './operator-command.ts';

const M = '--mode test|live';

export const CHECKOUT_COMMANDS: OperatorCommand[] = [
  {
    words: 'checkouts create',
    synopsis: `ACCOUNT_ID ${M} --kind page|pricing_table|widget --description D --currency C [--amount A] [--min-amount A --max-amount A] [--plans "Basic:9,Pro:29"]`,
    summary: 'Makes a reusable checkout (chk_…) and prints it with its buyer page url; each buyer visit makes a new payment.',
    details: [
      'page and widget: a fixed --amount, or --min-amount and --max-amount for a price the buyer enters.',
      'pricing_table: --plans, 2 to 4 LABEL:PRICE pairs; the chosen one is the payment’s planLabel ("Pro — 29.00 EUR").',
      'widget: paste <script src="PAGES/pay/assets/widget.js" data-checkout="chk_…" async></script> into the site.',
    ],
    audited: true,
    run: (input) =>
      withAccountAdmin(input, async ({ admin, ctx, account, values }) => {
        const { checkout } = await admin.createCheckout(
          {
            kind: need(values.kind, '--kind'),
            description: need(values.description, '--description'),
            currency: need(values.currency, '--currency'),
            amount: values.amount,
            minAmount: values['min-amount'],
            maxAmount: values['max-amount'],
            plans: parsePlans(values.plans),
            account: creatingAccount(account),
          },
          ctx,
        );
        return checkoutView(checkout);
      }),
  },
  {
    words: 'checkouts list',
    synopsis: `ACCOUNT_ID ${M} [--limit N]`,
    summary: "Lists the account's checkouts in that mode, newest first.",
    audited: false,
    run: (input) =>
      withAccountAdmin(input, async ({ admin, ctx, values }) =>
        (await admin.listCheckouts({ limit: listLimit(values.limit) }, ctx)).checkouts.map((c) => checkoutView(c)),
      ),
  },
  {
    words: 'checkouts show',
    synopsis: `ACCOUNT_ID CHK_ID ${M}`,
    summary: 'Prints one checkout.',
    audited: false,
    run: (input) =>
      withAccountAdmin(input, async ({ admin, ctx }) =>
        checkoutView((await admin.getCheckout({ id: need(input.args[1], 'CHK_ID') }, ctx)).checkout),
      ),
  },
  {
    words: 'checkouts archive',
    synopsis: `ACCOUNT_ID CHK_ID ${M}`,
    summary: 'Archives a checkout: its pages say so and make no new payment; payments already made are untouched.',
    audited: true,
    run: (input) =>
      withAccountAdmin(input, async ({ admin, ctx }) =>
        checkoutView((await admin.archiveCheckout({ id: need(input.args[1], 'CHK_ID') }, ctx)).checkout),
      ),
  },
];

/** "Basic:9,Pro:29" → plans; a label may hold ':' (the last one separates the price). */
function parsePlans(raw: string | undefined): { label: string; amount: string }[] {
  if (raw === undefined) return [];
  return raw.split(',').map((pair) => {
    const at = pair.lastIndexOf(':');
    if (at < 0) throw new ApiError('invalid_plans', 'Each plan is LABEL:PRICE, e.g. "Pro:29".', 'plans');
    return { label: pair.slice(0, at).trim(), amount: pair.slice(at + 1).trim() };
  });
}

function checkoutView(checkout: Checkout | undefined): Record<string, unknown> {
  if (!checkout) throw new ApiError('internal_error');
  return {
    id: checkout.id,
    object: 'checkout',
    kind: checkout.kind,
    livemode: checkout.livemode,
    description: checkout.description,
    currency: checkout.currency,
    amount: checkout.amount ?? null,
    min_amount: checkout.minAmount ?? null,
    max_amount: checkout.maxAmount ?? null,
    plans: checkout.plans.map((p) => ({ label: p.label, amount: p.amount })),
    url: checkout.url,
    created: Number(checkout.created),
    archived_at: checkout.archivedAt === undefined ? null : Number(checkout.archivedAt),
  };
}
