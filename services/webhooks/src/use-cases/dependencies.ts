import type { DeliverySettings } from '../config.ts';
import type { DeliveryConnections } from '../adapters/delivery-connections.ts';
import type { HostResolver } from '../adapters/target-resolver.ts';
import type { CheckLimits } from '../store/check-limits.ts';
import type { DeliveryStore } from '../store/deliveries.ts';
import type { EndpointStore } from '../store/endpoints.ts';
import type { ErasureStore } from '../store/erasures.ts';
import type { EventStore } from '../store/events.ts';

/** What use cases need from the outside world; tests pass real stores, their own resolver or clock. */
export interface WebhooksDependencies {
  readonly endpoints: EndpointStore;
  readonly events: EventStore;
  readonly deliveries: DeliveryStore;
  readonly erasures: ErasureStore;
  readonly settings: DeliverySettings;
  readonly resolver: HostResolver;
  /** The endpoint checker's per-account budget (docs/adr/0087). */
  readonly checkLimits: CheckLimits;
  /** Extra trusted CA certificates (PEM) for https endpoints; tests use a self-signed receiver. */
  readonly ca?: string | undefined;
  /** Keep-alive connections to endpoints, shared by deliveries and the endpoint checker (docs/adr/0111). */
  readonly connections: DeliveryConnections;
  readonly now: () => Date;
  /** Tells the delivery worker that deliveries were queued. */
  readonly wakeWorker: () => void;
}
