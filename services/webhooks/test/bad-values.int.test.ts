// Risk covered: a value only PostgreSQL refuses (a NUL byte: SQLSTATE 22021) reaching the webhooks
// store (operator/dashboard calls) and surfacing as a 500. The shared gRPC mapping must answer it as
// 400 invalid_request, and no endpoint may be stored.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { testNatsPrefix } from '@hc/test-kit';
import { startWebhooksStack, testScope, type WebhooksStack } from './support/webhooks-stack.ts';

const scope = testScope('acct_bad_values');
let webhooks: WebhooksStack;

beforeAll(async () => {
  webhooks = await startWebhooksStack(createLogger('webhooks-test', { level: 'silent' }), testNatsPrefix('webhooks_bad_values'));
});

afterAll(async () => {
  await webhooks.stop();
});

describe("webhooks' store: a bad value is 400 invalid_request, never a 500", () => {
  it('a NUL in an endpoint description (22021) is invalid_request and stores no endpoint', async () => {
    await expect(webhooks.client.createEndpoint({ url: 'https://127.0.0.1/in', description: 'shop\u0000' }, scope)).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(await webhooks.prisma.webhookEndpoint.count()).toBe(0);
  });

  it('the same endpoint without the NUL is stored', async () => {
    await webhooks.client.createEndpoint({ url: 'https://127.0.0.1/in', description: 'shop' }, scope);
    expect(await webhooks.prisma.webhookEndpoint.count()).toBe(1);
  });
});
