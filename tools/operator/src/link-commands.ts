/**
 * Operator CLI: the `links …` commands (payment links, docs/payment-links.md), over gRPC to the
 * checkout context's admin service (merchants make them with the secret key on /v1/payment_links,
 * ADR 0045). Each entry of the command table runs one; operator.ts prints what it returns.
 */
import { answered } from '@hc/conversions';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { paymentObject } from '@hc/gateway';
import { need } from './arguments.ts';
import { creatingAccount, listLimit, withAccountAdmin } from './checkout-admin.ts';
import type { OperatorCommand } from './operator-command.ts';

const M = '--mode test|live';

export const LINK_COMMANDS: OperatorCommand[] = [
  {
    words: 'links create',
    synopsis: `ACCOUNT_ID ${M} --amount A --currency C --description D [--customer-name N] [--memo M] [--email E] [--reference R] [--lifetime 7d]`,
    summary: 'Makes a payment link for one buyer and prints it: id (pay_…), url, tracking_url, expires_at.',
    details: [
      'Amount, currency, description, email and reference follow the API’s create rules and codes.',
      'Lifetime: a whole number of minutes (m), hours (h) or days (d) from 1h to 90d; 7d when left out (invalid_lifetime).',
      'The url is the hosted checkout page; the tracking_url a read-only page of the payment’s state for the buyer.',
    ],
    audited: true,
    run: (input) =>
      withAccountAdmin(input, async ({ admin, ctx, account, values }) => {
        const { payment } = await admin.createPaymentLink(
          {
            amount: need(values.amount, '--amount'),
            currency: need(values.currency, '--currency'),
            description: need(values.description, '--description'),
            customerName: values['customer-name'],
            memo: values.memo,
            customerEmail: values.email,
            reference: values.reference,
            lifetime: values.lifetime,
            account: creatingAccount(account),
          },
          ctx,
        );
        return linkView(answered(payment, 'payment'));
      }),
  },
  {
    words: 'links cancel',
    synopsis: `ACCOUNT_ID PAYMENT_ID ${M}`,
    summary:
      'Cancels a payment link nobody has paid (open, or pending at a provider): status expired, canceled_at set, payment.canceled sent.',
    details: [
      'Once paid, held, failed or expired: refused with not_cancelable (exit 1).',
      'Another account’s or mode’s payment: not_found. Canceling a canceled link again prints it unchanged.',
    ],
    audited: true,
    run: (input) =>
      withAccountAdmin(input, async ({ admin, ctx }) => {
        const { payment } = await admin.cancelPaymentLink({ id: need(input.args[1], 'PAYMENT_ID') }, ctx);
        return linkView(answered(payment, 'payment'));
      }),
  },
  {
    words: 'links list',
    synopsis: `ACCOUNT_ID ${M} [--limit N]`,
    summary: "Lists the account's payment links in that mode, newest first.",
    audited: false,
    run: (input) =>
      withAccountAdmin(input, async ({ admin, ctx, values }) => {
        const { payments } = await admin.listPaymentLinks({ limit: listLimit(values.limit) }, ctx);
        return payments.map(linkView);
      }),
  },
];

function linkView(link: Payment): Record<string, unknown> {
  return {
    ...paymentObject(link),
    source: 'payment_link',
    tracking_url: link.trackingUrl ?? '',
    customer_name: link.customerName ?? null,
    memo: link.memo ?? null,
  };
}
