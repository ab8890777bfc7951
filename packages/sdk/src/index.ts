export { createClient, type ClientOptions, type CreateOptions, type HostedCheckout, type ListCall, type RequestOptions } from './client.ts';
export { HostedCheckoutError, type ErrorCode } from './errors.ts';
export { forwardEvent, forwardEvents, newSigningSecret, type ForwardOptions, type Forwarded } from './listen.ts';
export { paginate, type Page } from './paging.ts';
export { verifyWebhook, WebhookVerificationError, type HeadersLike, type WebhookVerificationCode } from './webhooks.ts';
export type * from './types.ts';
