import type { MessageInitShape } from '@bufbuild/protobuf';
import type { CheckoutSchema } from '@hc/proto/checkout/v1';
import type { Checkout } from '../../domain/checkout.ts';
import { unixSecondsBig } from '@hc/conversions';

/** The buyer's page of a checkout (services/pages). */
export function checkoutPageUrl(publicBaseUrl: string, id: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/c/${id}`;
}

export function checkoutMessage(checkout: Checkout, publicBaseUrl: string): MessageInitShape<typeof CheckoutSchema> {
  return {
    id: checkout.id,
    livemode: checkout.livemode,
    kind: checkout.kind,
    description: checkout.description,
    currency: checkout.currency,
    amount: checkout.amount ?? undefined,
    minAmount: checkout.minAmount ?? undefined,
    maxAmount: checkout.maxAmount ?? undefined,
    plans: (checkout.plans ?? []).map((p) => ({ label: p.label, amount: p.amount })),
    created: unixSecondsBig(checkout.createdAt),
    archivedAt: checkout.archivedAt ? unixSecondsBig(checkout.archivedAt) : undefined,
    url: checkoutPageUrl(publicBaseUrl, checkout.id),
    merchantName: checkout.merchantName ?? '',
  };
}
