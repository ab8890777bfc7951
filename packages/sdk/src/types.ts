import type { components, operations } from './generated/openapi.ts';

type Schemas = components['schemas'];

/** The API's objects, generated from docs/openapi.json (never hand-typed). */
export type CheckoutSession = Schemas['CheckoutSession'];
export type StartedCheckoutSession = Schemas['StartedCheckoutSession'];
export type Payment = Schemas['Payment'];
export type Customer = Schemas['Customer'];
export type Order = Schemas['Order'];
export type WebhookEvent = Schemas['WebhookEvent'];
export type WebhookEventType = WebhookEvent['type'];
export type ListenPage = Schemas['ListenPage'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type RotatedWebhookEndpoint = Schemas['RotatedWebhookEndpoint'];
export type DeletedWebhookEndpoint = Schemas['DeletedWebhookEndpoint'];
export type WebhookEndpointCheck = Schemas['WebhookEndpointCheck'];
export type PaymentLink = Schemas['PaymentLink'];

/** The query parameters and JSON bodies of the operations, by operationId. */
export type QueryOf<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
export type BodyOf<Op extends keyof operations> = operations[Op] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;

export type CreateCheckoutSessionParams = BodyOf<'createCheckoutSession'>;
export type StartCheckoutSessionParams = BodyOf<'startCheckoutSession'>;
export type SimulateOutcome = 'paid' | 'underpaid' | 'failed' | 'expired';
export type ListPaymentsParams = Omit<QueryOf<'listPayments'>, 'starting_after'>;
export type ListCustomersParams = Omit<QueryOf<'listCustomers'>, 'starting_after'>;
export type ListOrdersParams = Omit<QueryOf<'listOrders'>, 'starting_after'>;
export type ListEventsParams = Omit<QueryOf<'listEvents'>, 'starting_after'>;
export type ListenParams = QueryOf<'listen'>;
export type CreateWebhookEndpointParams = BodyOf<'createWebhookEndpoint'>;
export type UpdateWebhookEndpointParams = BodyOf<'updateWebhookEndpoint'>;
export type CreatePaymentLinkParams = BodyOf<'createPaymentLink'>;
export type ListPaymentLinksParams = Omit<QueryOf<'listPaymentLinks'>, 'starting_after'>;
