import type { MessageInitShape } from '@bufbuild/protobuf';
import type { CheckoutSchema } from '@hc/proto/checkout/v1';
import type { Checkout } from '../../domain/checkout.ts';

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
    created: BigInt(Math.floor(checkout.createdAt.getTime() / 1000)),
    archivedAt: checkout.archivedAt ? BigInt(Math.floor(checkout.archivedAt.getTime() / 1000)) : undefined,
    url: checkoutPageUrl(publicBaseUrl, checkout.id),
    merchantName: checkout.merchantName ?? '',
  };
}
