/** Operator CLI: `customers erase` and `customers note`, over gRPC to the customers service. */
import { ApiError } from '@hc/errors';
import { customerObject } from '@hc/gateway';
import { checkoutWritesBarrier, createToolClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { CustomersService } from '@hc/proto/customers/v1';
import { need, operatorContext, parseMode } from './arguments.ts';
import { accountOf, type CommandInput, type CommandResult, type OperatorCommand } from './operator-command.ts';

/** How long the operator's customers commands wait for answered writes and for the erasure to propagate. */
const OPERATOR_WAIT_MS = 10_000;

interface CustomerCall {
  customers: ServiceClient<typeof CustomersService>;
  ctx: CallContext;
  id: string;
  /** Read-your-writes (docs/adr/0011): a customer made by a create the merchant was just answered is found. */
  barrier: Awaited<ReturnType<typeof checkoutWritesBarrier>>;
}

async function withCustomers(input: CommandInput, call: (customer: CustomerCall) => Promise<CommandResult>): Promise<CommandResult> {
  const { config, values } = input;
  const mode = parseMode(values.mode);
  const account = await accountOf(input);
  const id = need(input.args[1], 'CUSTOMER_ID');
  const ctx = operatorContext(account.id, mode);
  // An operator waits longer than an API read: an erase also waits for checkout and webhooks to apply it.
  const waitMs = Math.max(config.CUSTOMERS_READ_WAIT_MS, OPERATOR_WAIT_MS);
  const timeoutMs = config.GRPC_TIMEOUT_MS + waitMs;
  const customers = createToolClient(CustomersService, config.CUSTOMERS_GRPC_ADDRESS, timeoutMs);
  const checkout = createToolClient(CheckoutService, config.CHECKOUT_GRPC_ADDRESS, timeoutMs);
  try {
    const barrier = await checkoutWritesBarrier(checkout, ctx, waitMs);
    return await call({ customers, ctx, id, barrier });
  } finally {
    customers.close();
    checkout.close();
  }
}

export const CUSTOMER_COMMANDS: OperatorCommand[] = [
  {
    words: 'customers erase',
    synopsis: 'ACCOUNT_ID CUSTOMER_ID --mode test|live',
    summary: 'Erases a buyer’s personal data everywhere the platform keeps it. IRREVERSIBLE.',
    details: ['Counters and order amounts stay; the email, name, phone, addresses and note are removed.'],
    audited: true,
    run: (input) =>
      withCustomers(input, async ({ customers, ctx, id, barrier }) => {
        // Answered only once checkout and webhooks have applied the erasure too.
        const { customer } = await customers.eraseCustomer({ id, barrier }, ctx);
        if (!customer) throw new ApiError('internal_error');
        return customerObject(customer) as unknown as Record<string, unknown>;
      }),
  },
  {
    words: 'customers note',
    synopsis: 'ACCOUNT_ID CUSTOMER_ID --mode test|live [--set TEXT]',
    summary: 'Prints a customer’s private note, or replaces it with --set (an empty TEXT clears it).',
    details: ['The note is for the merchant’s staff: it never appears in the API.'],
    // Without --set it only reads the note.
    audited: (values) => values.set !== undefined,
    run: (input) =>
      withCustomers(input, async ({ customers, ctx, id, barrier }) => {
        if (input.values.set !== undefined) await customers.setCustomerNote({ id, note: input.values.set, barrier }, ctx);
        const { note } = await customers.getCustomerNote({ id, barrier }, ctx);
        return { customer: id, note: note ?? null };
      }),
  },
];
