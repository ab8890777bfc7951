import { type Router, type Request } from 'express';
import { ApiError } from '@hc/errors';
import { answered } from '@hc/conversions';
import type { PaymentTimelineEntry } from '@hc/proto/checkout/v1';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import type { Event } from '@hc/proto/webhooks/v1';
import { formatMoney, formatTime, millisDate, pageSize, PAYMENT_STATUSES, paymentStatusWord } from '../../domain/format.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { redirectWithFlash } from './auth-routes.ts';
import { modeOf } from './mode.ts';
import { modePath } from './paths.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { isInvalidCursor, renderNoSuchPage, renderPage } from './render.ts';
import { callContext } from './session.ts';
import { signedInRouter } from './routers.ts';

/** Timeline lines a person should look at: a notice we refused or that disagreed with the chain. */
const FLAGGED = new Set(['notice_rejected', 'notice_mismatch', 'notice_duplicate']);

function query(req: Request, name: string): string {
  const value = req.query[name];
  return typeof value === 'string' ? value.trim().slice(0, 254) : '';
}

/** A row of the payments list, from the one Payment message (ADR 0102). */
function paymentRow(payment: Payment) {
  return {
    id: payment.id,
    status: paymentStatusWord(payment),
    amount: formatMoney(payment.amount, payment.currency),
    description: payment.description,
    reference: payment.reference ?? null,
    email: payment.customerEmail ?? null,
    created: formatTime(millisDate(payment.createdAt)),
  };
}

/** The payment's page, from the one Payment message (ADR 0102). */
function paymentView(payment: Payment) {
  return {
    ...paymentRow(payment),
    url: payment.url,
    livemode: payment.mode === 'live',
    expiresAt: formatTime(millisDate(payment.expiresAt)),
    startedAt: formatTime(millisDate(payment.startedAt)),
    paidAt: formatTime(millisDate(payment.paidAt)),
    canceledAt: formatTime(millisDate(payment.canceledAt)),
    provider: payment.provider ?? null,
    country: payment.country ?? null,
    holdReason: payment.holdReason ?? null,
    acceptable: payment.status === 'held' && payment.holdAcceptable,
    metadata: Object.entries(payment.metadata ?? {}).map(([key, value]) => [key, String(value)]),
    settlement:
      payment.coin || payment.txidIn
        ? {
            coin: payment.coin ?? null,
            valueCoin: payment.valueCoin ?? null,
            merchantReceived: payment.merchantReceived ?? null,
            txidIn: payment.txidIn ?? null,
            txidOut: payment.txidOut ?? null,
            // Fixed when the buyer started; none before.
            payoutWallet: payment.startedAt === undefined ? null : (payment.payoutWallet ?? null),
          }
        : null,
  };
}

/** A timeline line's details as key and value pairs (the raw text if it is not a JSON object). */
function details(json: string): [string, string][] {
  try {
    const parsed = JSON.parse(json || '{}') as Record<string, unknown>;
    return Object.entries(parsed).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]);
  } catch {
    return [['detail', json]];
  }
}

function timelineLine(entry: PaymentTimelineEntry) {
  const detail = details(entry.detailJson);
  return { source: entry.source, kind: entry.kind, at: formatTime(new Date(Number(entry.at))), flagged: FLAGGED.has(entry.kind), detail };
}

function eventLine(event: Event) {
  return { id: event.id, type: event.type, created: formatTime(event.created) };
}

/**
 * /dashboard/{mode}/payments: newest first, filtered by status, searched by reference or email, paged;
 * a payment's page with its fields, settlement, the webhook events sent for it and its timeline; and
 * Accept as paid for a held payment the checks allow it for, behind a confirmation page.
 */
export function paymentsRoutes(platform: PlatformClients, deps: DashboardDependencies): Router {
  const router = signedInRouter('/dashboard/:mode');

  router.get('/payments', async (req, res) => {
    const mode = modeOf(res);
    const status = (PAYMENT_STATUSES as readonly string[]).includes(query(req, 'status')) ? query(req, 'status') : '';
    const search = query(req, 'q');
    const after = query(req, 'starting_after') || undefined;
    const filters = {
      status: status || undefined,
      ...(search.includes('@') ? { customerEmail: search } : search ? { reference: search } : {}),
    };
    let page: { payments: Payment[]; hasMore: boolean };
    try {
      const answer = await platform.checkout.listPayments(
        { limit: pageSize(req.query['limit']), startingAfter: after, ...filters },
        callContext(res, mode),
      );
      page = { payments: answer.data, hasMore: answer.hasMore };
    } catch (error) {
      // A cursor that is not one of this account's payments in this mode: not a page of this list.
      if (isInvalidCursor(error)) return renderNoSuchPage(res);
      throw error;
    }
    const rows = page.payments.map(paymentRow);
    const last = page.payments.at(-1);
    const params = (extra: Record<string, string>) =>
      new URLSearchParams({ ...(status ? { status } : {}), ...(search ? { q: search } : {}), ...extra });
    renderPage(res, 'payments.njk', {
      title: 'Payments',
      area: 'payments',
      rows,
      status,
      search,
      statuses: PAYMENT_STATUSES,
      filtered: Boolean(status || search),
      next: page.hasMore && last ? `${modePath(mode, 'payments')}?${params({ starting_after: last.id })}` : null,
    });
  });

  router.get('/payments/:id', async (req, res) => {
    const mode = modeOf(res);
    const ctx = callContext(res, mode);
    const id = String(req.params['id']);
    const { payment } = await platform.checkout.getCheckoutSession({ id }, ctx);
    const [timeline, events] = await Promise.allSettled([
      platform.checkout.getPaymentTimeline({ id }, ctx),
      platform.webhooks.listEvents({ limit: 100, paymentId: id, maxAgeSeconds: 0n }, ctx),
    ]);
    renderPage(res, 'payment.njk', {
      title: `Payment ${id}`,
      area: 'payments',
      payment: paymentView(answered(payment, 'payment')),
      timeline: timeline.status === 'fulfilled' ? timeline.value.entries.map(timelineLine) : null,
      events: events.status === 'fulfilled' ? events.value.events.map(eventLine) : null,
    });
  });

  router.get('/payments/:id/accept', async (req, res) => {
    const mode = modeOf(res);
    const answer = await platform.checkout.getCheckoutSession({ id: String(req.params['id']) }, callContext(res, mode));
    const payment = paymentView(answered(answer.payment, 'payment'));
    if (!payment.acceptable)
      return redirectWithFlash(
        deps,
        res,
        modePath(mode, 'payments', payment.id),
        'Only a held payment that the checks allow can be accepted as paid.',
      );
    renderPage(res, 'payment-accept.njk', { title: 'Accept as paid', area: 'payments', payment });
  });

  router.post('/payments/:id/accept', async (req, res) => {
    const mode = modeOf(res);
    const id = String(req.params['id']);
    try {
      await platform.checkout.acceptHeldPayment({ id }, callContext(res, mode));
    } catch (error) {
      // Already paid, failed, not held, or a hold that cannot be accepted: say so on the payment.
      if (!(error instanceof ApiError) || error.code === 'not_found' || error.httpStatus >= 500) throw error;
      return redirectWithFlash(deps, res, modePath(mode, 'payments', id), `Not accepted: ${error.message}`);
    }
    await redirectWithFlash(
      deps,
      res,
      modePath(mode, 'payments', id),
      'Accepted as paid. The payment now reads paid and payment.paid was sent.',
    );
  });

  return router;
}
