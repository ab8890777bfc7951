/** Whose data a call may touch: one account, one mode (from the gRPC metadata, never the request). */
export interface Scope {
  readonly accountId: string;
  readonly livemode: boolean;
}

export type EndpointStatus = 'enabled' | 'disabled';

/**
 * operator: disabled through the API or CLI. gone: the endpoint answered 410. failing: no attempt
 * succeeded for WEBHOOKS_DISABLE_AFTER_FAILING and a delivery ran out of attempts.
 */
export type DisabledReason = 'operator' | 'gone' | 'failing';

export interface WebhookEndpoint {
  readonly id: string;
  readonly accountId: string;
  readonly livemode: boolean;
  readonly url: string;
  readonly description: string | null;
  readonly enabledEvents: readonly string[];
  readonly status: EndpointStatus;
  readonly disabledReason: DisabledReason | null;
  readonly disabledAt: Date | null;
  readonly failingSince: Date | null;
  readonly lastSuccessAt: Date | null;
  readonly createdAt: Date;
}

export const MAX_DESCRIPTION_LENGTH = 120;
