// Risk covered: a Live start that half-happens when the processor does not answer — settlement is up,
// the processor (the emulator, over real HTTP) is gone: the buyer must get network_unavailable, the
// session must stay unstarted with no deposit address, and a retry once the processor is back starts it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadEmulatorConfig, startEmulator, type RunningEmulator } from '@hc/emulator';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService } from '@hc/proto/checkout/v1';
import { startCheckoutStack, type CheckoutStack } from './support/checkout-stack.ts';

const logger = createLogger('processor-down-test', { level: 'silent' });
const live: CallContext = { accountId: 'acct_PD', livemode: true, requestId: 'req_pd' };
const account = { payoutWallet: '0x4444444444444444444444444444444444444444', feeBps: 150 };
let stack: CheckoutStack;
let client: ServiceClient<typeof CheckoutService>;
let revived: RunningEmulator | undefined;

beforeAll(async () => {
  stack = await startCheckoutStack(logger, { label: 'procdown', settlementEnv: { PROCESSOR_TIMEOUT_MS: '1000' } });
  client = createServiceClient(CheckoutService, stack.checkout.address);
});
afterAll(async () => {
  client.close();
  await revived?.stop();
  await stack.stop();
});

describe('a Live start while the processor is down', () => {
  it('answers network_unavailable, starts nothing, and starts on a retry once the processor is back', async () => {
    const { payment } = await client.createCheckoutSession(
      { amount: '21.55', currency: 'USD', description: 'Kettle', customerEmail: 'k@example.com', account },
      live,
    );
    const port = new URL(stack.emulator.url).port;
    await stack.emulator.stop();

    await expect(client.startCheckoutSession({ id: payment!.id, account }, live)).rejects.toMatchObject({
      code: 'network_unavailable',
    });
    const { payment: after } = await client.getCheckoutSession({ id: payment!.id }, live);
    expect(after!.startedAt).toBeUndefined();
    const { entries } = await client.getPaymentTimeline({ id: payment!.id }, live);
    expect(entries.map((e) => e.kind)).toEqual(['created']);

    // The processor comes back where settlement expects it; the buyer's retry starts the payment.
    revived = await startEmulator(loadEmulatorConfig({ EMULATOR_PORT: port, LOG_LEVEL: 'silent' }), logger);
    const { payment: started } = await client.startCheckoutSession({ id: payment!.id, account }, live);
    expect(started!.startedAt).toBeDefined();
    const retried = await client.getPaymentTimeline({ id: payment!.id }, live);
    expect(retried.entries.map((e) => e.kind).sort()).toEqual(['address_assigned', 'created', 'started']);
  });
});
