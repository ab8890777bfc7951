/**
 * One example of every named schema of schemas.ts, written beside it so the reference never drifts:
 * the OpenAPI document shows each as the schema's `examples` and as the example of every response
 * that answers it (openapi/document.ts), and a test validates each against its schema
 * (openapi/examples.test.ts), so a field added to a schema without its example fails CI.
 */

import { WEBHOOK_ENDPOINT_CHECK_EXAMPLE } from './webhook-check.ts';

const CREATED = 1795319832;
const EXPIRES = CREATED + 86_400;
const STARTED = CREATED + 66;
const PAID = CREATED + 480;
const PAYMENT_ID = 'pay_01JD6Z4K8QH3M2V7T5R9X0C1B2';
const LINK_ID = 'pay_01JD7A2B3C4D5E6F7G8H9J0K1L';
const CUSTOMER_ID = 'cus_01JD6Z4K8R0000000000000000';
const ENDPOINT_ID = 'we_01JD6Z4K8S0000000000000000';
const EVENT_ID = 'evt_01JD6Z4K8T0000000000000000';

const session = {
  id: PAYMENT_ID,
  object: 'checkout_session',
  url: `https://pay.example.com/pay/${PAYMENT_ID}`,
  status: 'open',
  livemode: false,
  amount: '19.90',
  currency: 'USD',
  description: 'Blue mug',
  reference: 'ORD-1001',
  customer_email: 'ann@example.com',
  created: CREATED,
  expires_at: EXPIRES,
  started_at: null,
  metadata: { cart: 'c_77' },
  locale: 'fr',
};

const provider = {
  id: 'walletpay',
  name: 'WalletPay',
  note: 'Apple Pay or Google Pay in two taps.',
  recommended: true,
  handoff_url: 'https://walletpay.example/checkout/abc123',
};

const payment = {
  ...session,
  object: 'payment',
  status: 'paid',
  started_at: STARTED,
  paid_at: PAID,
  provider: 'walletpay',
  hold_reason: null,
  hold_acceptable: false,
  canceled_at: null,
  settlement: {
    coin: 'polygon_usdc',
    value_coin: '19.303000',
    merchant_received: '19.013455',
    txid_in: '0x5f1c0c1e9b3a4d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9012345678abcd',
    txid_out: '0x9a8b7c6d5e4f30211f2e3d4c5b6a79880716253443526170809f8e7d6c5b4a39',
    payout_wallet: '0x52908400098527886E0F7030069857D2E4169EE7',
  },
};

const address = {
  name: 'Ann Example',
  line1: '12 Rue de la Paix',
  line2: null,
  city: 'Paris',
  region: null,
  postal_code: '75002',
  country: 'FR',
};

const storeAccount = { platform: 'shopify', store_id: 'mugs-and-co', store_name: 'Mugs & Co', customer_id: '7731' };

const webhookPayment = {
  id: PAYMENT_ID,
  mode: 'test',
  source: 'checkout',
  description: 'Blue mug',
  reference: 'ORD-1001',
  customerEmail: 'ann@example.com',
  amount: '19.90',
  currency: 'USD',
  status: 'paid',
  provider: 'walletpay',
  merchantReceived: '19.013455',
  metadata: { cart: 'c_77' },
  createdAt: CREATED * 1000,
  paidAt: PAID * 1000,
  expiresAt: EXPIRES * 1000,
};

const webhookEvent = {
  id: EVENT_ID,
  type: 'payment.paid',
  created: PAID,
  livemode: false,
  data: { payment: webhookPayment },
};

const webhookEndpoint = {
  id: ENDPOINT_ID,
  object: 'webhook_endpoint',
  url: 'https://shop.example.com/webhooks/hosted-checkout',
  description: 'Fulfil paid orders',
  enabled_events: ['payment.paid', 'payment.failed'],
  status: 'enabled',
  disabled_reason: null,
  livemode: false,
  created: CREATED,
};

const SECRET = 'whsec_4eC39HqLyjWDarjtT1zdp7dc';

const paymentLink = {
  ...session,
  id: LINK_ID,
  object: 'payment_link',
  url: `https://pay.example.com/pay/${LINK_ID}`,
  started_at: null,
  paid_at: null,
  provider: null,
  hold_reason: null,
  hold_acceptable: false,
  canceled_at: null,
  settlement: { coin: null, value_coin: null, merchant_received: null, txid_in: null, txid_out: null, payout_wallet: null },
  tracking_url: `https://pay.example.com/track/${LINK_ID}`,
  customer_name: 'Ann Example',
  memo: 'Thanks for your order!',
};

const customer = {
  id: CUSTOMER_ID,
  object: 'customer',
  livemode: false,
  email: 'ann@example.com',
  name: 'Ann Example',
  phone: '+33 1 23 45 67 89',
  shipping_address: address,
  billing_address: null,
  store_accounts: [storeAccount],
  orders_count: 1,
  paid_orders_count: 1,
  spent: { USD: '19.90' },
  created: CREATED,
  last_order_at: CREATED,
  erased: false,
};

const order = {
  id: PAYMENT_ID,
  object: 'order',
  livemode: false,
  customer_id: CUSTOMER_ID,
  status: 'paid',
  amount: '19.90',
  currency: 'USD',
  email: 'ann@example.com',
  name: 'Ann Example',
  phone: '+33 1 23 45 67 89',
  shipping_address: address,
  billing_address: null,
  store_account: storeAccount,
  created: CREATED,
  paid_at: PAID,
};

const page = (item: unknown) => ({ data: [item], has_more: false, next_cursor: null });

/** The example of each named schema, by its name in `components.schemas`. */
export const SCHEMA_EXAMPLES: Readonly<Record<string, unknown>> = {
  CheckoutSession: session,
  StartedCheckoutSession: { ...session, status: 'pending', started_at: STARTED, country: 'DE', providers: [provider] },
  Provider: provider,
  Payment: payment,
  PaymentList: { data: [payment], has_more: true, next_cursor: PAYMENT_ID },
  Address: address,
  StoreAccount: storeAccount,
  Customer: customer,
  CustomerList: page(customer),
  Order: order,
  OrderList: page(order),
  ErrorCode: 'invalid_amount',
  Error: { error: { code: 'invalid_amount', message: 'amount must be a positive decimal string.', field: 'amount' } },
  EventList: page(webhookEvent),
  WebhookEndpoint: webhookEndpoint,
  WebhookEndpointWithSecret: { ...webhookEndpoint, secret: SECRET },
  RotatedWebhookEndpoint: { ...webhookEndpoint, secret: 'whsec_9kQx7mZ2pL4vN8rT1yB6cW3d', previous_secret_expires_at: PAID + 86_400 },
  WebhookEndpointList: page(webhookEndpoint),
  WebhookEndpointCheck: WEBHOOK_ENDPOINT_CHECK_EXAMPLE(ENDPOINT_ID, PAID),
  DeletedWebhookEndpoint: { id: ENDPOINT_ID, object: 'webhook_endpoint', deleted: true },
  PaymentLink: paymentLink,
  PaymentLinkList: page(paymentLink),
  ListenPage: { object: 'list', data: [webhookEvent], has_more: false, next_cursor: EVENT_ID },
  WebhookPayment: webhookPayment,
  WebhookEvent: webhookEvent,
};

/** Ids the operations' examples use, so a path example names the object its response shows. */
export const EXAMPLE_IDS = { payment: PAYMENT_ID, link: LINK_ID, customer: CUSTOMER_ID, endpoint: ENDPOINT_ID, event: EVENT_ID };
