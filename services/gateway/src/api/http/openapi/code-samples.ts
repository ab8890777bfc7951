import { EXAMPLE_IDS } from '../presenters/schema-examples.ts';
import type { JsonSchema } from '../presenters/schemas.ts';

/**
 * The `x-codeSamples` of every operation (the rendered reference at /docs shows them): a curl
 * command and the same call with @hosted-checkout/sdk, both built here from the operation's own
 * example body and ids, so a sample cannot name a field or a method the API does not have (the
 * examples test checks every operation has both, and that each SDK method exists).
 */

/** The SDK call of each operationId; `$id` is the path id and `$body` the example body. */
export const SDK_CALLS: Readonly<Record<string, string>> = {
  createCheckoutSession: 'await client.checkoutSessions.create($body)',
  getCheckoutSession: 'await client.checkoutSessions.retrieve($id)',
  startCheckoutSession: 'await client.checkoutSessions.start($id, $body)',
  listPayments: "for await (const payment of client.payments.list({ status: 'paid' })) console.log(payment.id)",
  getPayment: 'await client.payments.retrieve($id)',
  simulatePayment: "await client.payments.simulate($id, 'paid')",
  listCustomers: 'for await (const customer of client.customers.list()) console.log(customer.id)',
  getCustomer: 'await client.customers.retrieve($id)',
  listOrders: 'for await (const order of client.orders.list()) console.log(order.id)',
  getOrder: 'await client.orders.retrieve($id)',
  listEvents: "for await (const event of client.events.list({ type: 'payment.paid' })) console.log(event.id)",
  getEvent: 'await client.events.retrieve($id)',
  listen: "await client.listen({ after: 'start', wait: 25 })",
  createWebhookEndpoint: 'await client.webhookEndpoints.create($body)',
  listWebhookEndpoints: 'await client.webhookEndpoints.list()',
  rotateWebhookEndpointSecret: 'await client.webhookEndpoints.rotateSecret($id)',
  checkWebhookEndpoint: 'await client.webhookEndpoints.check($id)',
  getWebhookEndpoint: 'await client.webhookEndpoints.retrieve($id)',
  updateWebhookEndpoint: 'await client.webhookEndpoints.update($id, $body)',
  deleteWebhookEndpoint: 'await client.webhookEndpoints.delete($id)',
  createPaymentLink: 'await client.paymentLinks.create($body)',
  listPaymentLinks: 'for await (const link of client.paymentLinks.list()) console.log(link.id)',
  getPaymentLink: 'await client.paymentLinks.retrieve($id)',
  cancelPaymentLink: 'await client.paymentLinks.cancel($id)',
};

/** The id an operation's path example names: the object its response example shows. */
export function exampleId(path: string): string {
  if (path.startsWith('/v1/webhook_endpoints')) return EXAMPLE_IDS.endpoint;
  if (path.startsWith('/v1/payment_links')) return EXAMPLE_IDS.link;
  if (path.startsWith('/v1/customers')) return EXAMPLE_IDS.customer;
  if (path.startsWith('/v1/events')) return EXAMPLE_IDS.event;
  return EXAMPLE_IDS.payment;
}

const SDK_SETUP =
  "import { createClient } from '@hosted-checkout/sdk';\n\n" +
  'const client = createClient({ baseUrl: process.env.GATEWAY_URL!, apiKey: process.env.TEST_SECRET_KEY! });\n';

export function codeSamples(operationId: string, method: string, path: string, body: unknown): JsonSchema[] {
  const url = `$GATEWAY_URL${path.replace('{id}', exampleId(path))}`;
  const curl = [`curl -s${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "${url}"`, '-H "Authorization: Bearer $TEST_SECRET_KEY"'];
  if (path === '/v1/checkout_sessions' || path === '/v1/payment_links' || path === '/v1/webhook_endpoints') {
    if (method === 'post') curl.push(`-H "Idempotency-Key: $(uuidgen)"`);
  }
  if (body !== undefined) curl.push('-H "Content-Type: application/json"', `-d '${JSON.stringify(body)}'`);
  const call = SDK_CALLS[operationId];
  if (call === undefined) throw new Error(`no SDK call for ${operationId} (openapi/code-samples.ts)`);
  const sdk = call.replace('$id', `'${exampleId(path)}'`).replace('$body', JSON.stringify(body, null, 2));
  return [
    { lang: 'Shell', label: 'curl', source: curl.join(' \\\n  ') },
    { lang: 'JavaScript', label: 'SDK', source: `${SDK_SETUP}\n${sdk};\n` },
  ];
}

/** The webhook delivery's sample: verifying it on the merchant's side with the SDK (Express). */
export function webhookCodeSamples(): JsonSchema[] {
  const source =
    "import express from 'express';\n" +
    "import { verifyWebhook } from '@hosted-checkout/sdk';\n\n" +
    'const app = express();\n' +
    '// The RAW body: the signature covers the bytes as sent (a parsed object is refused, code parsed_body).\n' +
    "app.post('/webhooks/hosted-checkout', express.raw({ type: 'application/json' }), (req, res) => {\n" +
    '  const event = verifyWebhook(req.body, req.headers, process.env.WEBHOOK_SECRET!); // throws when not ours\n' +
    "  if (event.type === 'payment.paid') fulfil(event.data.payment!.id); // idempotent: keyed by event.id\n" +
    '  res.sendStatus(200);\n' +
    '});\n';
  return [{ lang: 'JavaScript', label: 'SDK', source }];
}
