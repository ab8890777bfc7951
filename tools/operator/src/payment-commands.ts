/** Operator CLI: `payments accept-held` and `payments timeline`, over gRPC to the checkout service. */
import { answered } from '@hc/conversions';
import { paymentObject, type GatewayConfig } from '@hc/gateway';
import { createToolClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { need, operatorContext, parseMode } from './arguments.ts';
import { accountOf, type CommandInput, type CommandResult, type OperatorCommand } from './operator-command.ts';

const M = '--mode test|live';

/** Runs `call` with a checkout client for the account and mode of the command line, closed after it. */
async function withCheckout(
  input: CommandInput,
  call: (checkout: ServiceClient<typeof CheckoutService>, ctx: CallContext, paymentId: string) => Promise<CommandResult>,
): Promise<CommandResult> {
  const mode = parseMode(input.values.mode);
  const account = await accountOf(input);
  const config: GatewayConfig = input.config;
  const checkout = createToolClient(CheckoutService, config.CHECKOUT_GRPC_ADDRESS, config.GRPC_TIMEOUT_MS);
  try {
    return await call(checkout, operatorContext(account.id, mode), need(input.args[1], 'PAYMENT_ID'));
  } finally {
    checkout.close();
  }
}

export const PAYMENT_COMMANDS: OperatorCommand[] = [
  {
    words: 'payments accept-held',
    synopsis: `ACCOUNT_ID PAYMENT_ID ${M}`,
    summary: 'Accepts a held payment as paid on the merchant’s behalf (through the checkout service).',
    details: ['Refused unless the payment is held; prints the payment as the API shows it.'],
    audited: true,
    run: (input) =>
      withCheckout(input, async (checkout, ctx, id) => {
        const { updated } = await checkout.acceptHeldPayment({ id }, ctx);
        return paymentObject(answered(updated, 'updated')) as unknown as Record<string, unknown>;
      }),
  },
  {
    words: 'payments timeline',
    synopsis: `ACCOUNT_ID PAYMENT_ID ${M}`,
    summary: 'Prints what happened to a payment and its money, oldest first (never shown in the API or webhooks).',
    details: [
      'Checkout lines (created, started, canceled, expired, accepted_by_merchant) merged with settlement lines',
      '(address_assigned, transfer_seen_on_chain, notice_received, notice_rejected, notice_duplicate, notice_mismatch, verdict, forwarded).',
      'Each line: source, kind, at (ISO 8601), detail. Another account or mode: not_found.',
    ],
    audited: false,
    run: (input) =>
      withCheckout(input, async (checkout, ctx, id) => {
        const { entries } = await checkout.getPaymentTimeline({ id }, ctx);
        return entries.map((e) => ({
          source: e.source,
          kind: e.kind,
          at: new Date(Number(e.at)).toISOString(),
          detail: JSON.parse(e.detailJson) as Record<string, unknown>,
        }));
      }),
  },
];
