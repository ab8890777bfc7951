import type { EndpointAlert } from '@hc/proto/webhooks/v1/events';
import { utcWords } from './payment-mails.ts';

/** What the webhook alert template shows. */
export interface EndpointAlertView {
  readonly endpointId: string;
  readonly url: string;
  /** True: the platform disabled it; false: it is still on but failing. */
  readonly disabled: boolean;
  /** Why, in words. */
  readonly reason: string;
  /** "25 Nov 2026, 01:25 UTC", or null when unknown. */
  readonly failingSince: string | null;
  readonly dashboardLink: string;
  readonly test: boolean;
}

export function endpointAlertView(event: EndpointAlert, publicBaseUrl: string): EndpointAlertView {
  const mode = event.livemode ? 'live' : 'test';
  const disabled = event.type === 'endpoint.disabled';
  const reason = !disabled
    ? 'Deliveries to it keep failing; we keep retrying.'
    : event.disabledReason === 'gone'
      ? 'It answered 410 Gone, so we stopped sending to it.'
      : 'Deliveries failed for too long, so we stopped sending to it.';
  return {
    endpointId: event.endpointId,
    url: event.url,
    disabled,
    reason,
    failingSince: event.failingSince === undefined ? null : utcWords(Number(event.failingSince)),
    dashboardLink: `${publicBaseUrl.replace(/\/+$/, '')}/dashboard/${mode}/developers/endpoints/${encodeURIComponent(event.endpointId)}`,
    test: !event.livemode,
  };
}
