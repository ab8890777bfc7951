import { unixSecondsBig } from '@hc/conversions';
import type { ServiceHandlers } from '@hc/grpc';
import type { CheckoutAdminService } from '@hc/proto/checkout/v1';
import type { Payment } from '../../domain/payment.ts';
import type { StatusCounts } from '../../domain/overview.ts';
import { cancelPaymentLink } from '../../use-cases/cancel-payment-link.ts';
import { createPaymentLink } from '../../use-cases/create-payment-link.ts';
import type { CheckoutDependencies } from '../../use-cases/dependencies.ts';
import { getPaymentLink } from '../../use-cases/get-payment-link.ts';
import { exportPaidPayments, exportPayments } from '../../use-cases/export-payments.ts';
import { getOverview } from '../../use-cases/get-overview.ts';
import { listPayments, paymentFilters } from '../../use-cases/list-payments.ts';
import { archiveCheckout } from '../../use-cases/archive-checkout.ts';
import { createCheckout } from '../../use-cases/create-checkout.ts';
import { getCheckout } from '../../use-cases/get-checkout.ts';
import { listCheckouts } from '../../use-cases/list-checkouts.ts';
import { checkoutMessage } from './checkout-message.ts';
import { paymentMessage } from './payment-message.ts';
import { accountSnapshot } from './account-snapshot.ts';

const DEFAULT_LIST_LIMIT = 20;

/**
 * The operator's and dashboard's calls (never the merchant API): payment links. Thin, as every
 * handler: proto in, use case, proto out.
 */
export function adminHandlers(deps: CheckoutDependencies): ServiceHandlers<typeof CheckoutAdminService> {
  // Every answer carries the payment (a link's tracking URL, name and memo included) as the one Payment
  // message (docs/adr/0102, 0106).
  const paymentAnswer = (payment: Payment) => paymentMessage(payment, deps);
  return {
    async createPaymentLink(request, ctx) {
      const { payment, created } = await createPaymentLink(
        deps,
        ctx,
        {
          amount: request.amount,
          currency: request.currency,
          description: request.description,
          customerEmail: request.customerEmail,
          reference: request.reference,
          metadata: request.metadata?.entries,
          customerName: request.customerName,
          memo: request.memo,
          lifetime: request.lifetime,
          locale: request.locale,
        },
        accountSnapshot(request.account),
        request.id,
      );
      return { created, payment: paymentAnswer(payment) };
    },

    async cancelPaymentLink(request, ctx) {
      const canceled = await cancelPaymentLink(deps, ctx, request.id);
      return { payment: paymentAnswer(canceled) };
    },

    async getPaymentLink(request, ctx) {
      const found = await getPaymentLink(deps, ctx, request.id);
      return { payment: paymentAnswer(found) };
    },

    async *exportPayments(request, ctx) {
      const seconds = (value: bigint | undefined) => (value === undefined ? undefined : new Date(Number(value) * 1000));
      const message = (payment: Payment) => ({
        usdValue: payment.usdValue ?? undefined,
        exported: paymentAnswer(payment),
      });
      const filters = { ...paymentFilters(request), createdGte: seconds(request.createdGte), createdLt: seconds(request.createdLt) };
      if (request.paidGte !== undefined || request.paidLt !== undefined) {
        const period = { from: seconds(request.paidGte), until: seconds(request.paidLt) };
        for await (const payment of exportPaidPayments(deps, ctx, period, filters)) yield message(payment);
        return;
      }
      for await (const payment of exportPayments(deps, ctx, filters)) yield message(payment);
    },

    async getOverview(request, ctx) {
      const overview = await getOverview(deps, ctx, request.days);
      const counts = (c: StatusCounts) => ({
        paid: BigInt(c.paid),
        held: BigInt(c.held),
        failed: BigInt(c.failed),
        expired: BigInt(c.expired),
        open: BigInt(c.open),
      });
      return {
        periodStart: unixSecondsBig(overview.period.start),
        periodEnd: unixSecondsBig(overview.period.end),
        counts: counts(overview.counts),
        volume: [...overview.volume],
        received: [...overview.received],
        days: overview.days.map((day) => ({ date: day.date, counts: counts(day.counts), volume: [...day.volume] })),
        needsYouTotal: BigInt(overview.needsYouTotal),
        held: overview.needsYou.map(paymentAnswer),
      };
    },

    async listPaymentLinks(request, ctx) {
      const page = await listPayments(deps, ctx, request.limit || DEFAULT_LIST_LIMIT, request.startingAfter, { source: 'payment_link' });
      return { hasMore: page.hasMore, payments: page.payments.map(paymentAnswer) };
    },

    ...dashboardCheckoutHandlers(deps),
  };
}

type DashboardCheckoutCalls = 'createCheckout' | 'getCheckout' | 'listCheckouts' | 'archiveCheckout';

/** Dashboard checkouts (`chk_`, reusable pages): create, get, list, archive. */
function dashboardCheckoutHandlers(deps: CheckoutDependencies): Pick<ServiceHandlers<typeof CheckoutAdminService>, DashboardCheckoutCalls> {
  return {
    async createCheckout(request, ctx) {
      const checkout = await createCheckout(
        deps,
        ctx,
        {
          kind: request.kind,
          description: request.description,
          currency: request.currency,
          amount: request.amount,
          minAmount: request.minAmount,
          maxAmount: request.maxAmount,
          plans: request.plans,
        },
        accountSnapshot(request.account),
      );
      return { checkout: checkoutMessage(checkout, deps.publicBaseUrl) };
    },

    async getCheckout(request, ctx) {
      return { checkout: checkoutMessage(await getCheckout(deps, ctx, request.id), deps.publicBaseUrl) };
    },

    async listCheckouts(request, ctx) {
      const page = await listCheckouts(deps, ctx, request.limit || DEFAULT_LIST_LIMIT, request.startingAfter);
      return { checkouts: page.checkouts.map((c) => checkoutMessage(c, deps.publicBaseUrl)), hasMore: page.hasMore };
    },

    async archiveCheckout(request, ctx) {
      return { checkout: checkoutMessage(await archiveCheckout(deps, ctx, request.id), deps.publicBaseUrl) };
    },
  };
}
