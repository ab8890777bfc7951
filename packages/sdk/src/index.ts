export {
  createClient,
  DEFAULT_MAX_NETWORK_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type ClientOptions,
  type CreateOptions,
  type HostedCheckout,
  type ListCall,
  type RequestOptions,
} from './client.ts';
export {
  HostedCheckoutApiError,
  HostedCheckoutConnectionError,
  HostedCheckoutError,
  HostedCheckoutTimeoutError,
  HostedCheckoutUnexpectedResponseError,
  type ErrorCode,
} from './errors.ts';
export { forwardEvent, forwardEvents, newSigningSecret, type ForwardOptions, type Forwarded } from './listen.ts';
export { keptListenSecret, listenSecretName, listenSecretsFile, type KeptSecret } from './listen-secret.ts';
export { isTriggerName, trigger, TRIGGERS, type Triggered, type TriggerName } from './trigger.ts';
export { paginate, type Page } from './paging.ts';
export { verifyWebhook, WebhookVerificationError, type HeadersLike, type WebhookVerificationCode } from './webhooks.ts';
export type * from './types.ts';
export { SDK_VERSION } from './version.ts';
export * from './statement/index.ts';
