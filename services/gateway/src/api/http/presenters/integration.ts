import type { Payment } from '@hc/proto/checkout/v1/payment';
import type { Endpoint } from '@hc/proto/webhooks/v1';
import { paymentObject, type PaymentObject } from './payment.ts';

/** A webhook endpoint as the API shows it (never its secret, which create and rotate show once). */
export interface WebhookEndpointObject {
  id: string;
  object: 'webhook_endpoint';
  url: string;
  description: string | null;
  enabled_events: string[];
  status: string;
  disabled_reason: string | null;
  livemode: boolean;
  created: number;
}

export function webhookEndpointObject(endpoint: Endpoint): WebhookEndpointObject {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint',
    url: endpoint.url,
    description: endpoint.description ?? null,
    enabled_events: [...endpoint.enabledEvents],
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason ?? null,
    livemode: endpoint.livemode,
    created: Number(endpoint.created),
  };
}

/** A payment link: the payment it is (same `pay_` id and fields) plus who it is for and its tracking page. */
export interface PaymentLinkObject extends Omit<PaymentObject, 'object'> {
  object: 'payment_link';
  tracking_url: string;
  customer_name: string | null;
  memo: string | null;
}

export function paymentLinkObject(link: Payment): PaymentLinkObject {
  return {
    ...paymentObject(link),
    object: 'payment_link',
    tracking_url: link.trackingUrl ?? '',
    customer_name: link.customerName ?? null,
    memo: link.memo ?? null,
  };
}
