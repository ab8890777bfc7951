import type { EmulatedCoin, EmulatedPayment } from '../domain/ledger.ts';
import { noticeBody, type NoticeBody, type NoticeMode } from '../domain/notice-body.ts';
import type { EmulatorDependencies } from './dependencies.ts';

/** A buyer's payment to the emulator: how much of which coin, where it goes, and how the processor reports it. */
export interface PaymentOrder {
  readonly paymentId: string;
  readonly amount: string;
  readonly coin: EmulatedCoin;
  readonly forwardTo: string | undefined;
  readonly toAddress: string | undefined;
  readonly reuseTxidOf: string | undefined;
}

export type NoticeDelivery = { id: string; status: number | 'scheduled' };

/**
 * A buyer pays: the chain records the transfer, the processor asks settlement where to forward it
 * (docs/adr/0081), forwards it there and notifies as `mode` says.
 */
export async function pay(
  deps: EmulatorDependencies,
  order: PaymentOrder,
  mode: NoticeMode,
): Promise<{ payment: EmulatedPayment; deliveries: NoticeDelivery[] }> {
  const receipt = deps.ledger.receive(order, new Date());
  // Where to forward is asked when forwarding, never fixed when the address was made (docs/adr/0081).
  const wallet = await deps.notices.askForwardTarget(order.paymentId, receipt.txidIn);
  const payment = deps.ledger.forward(order, receipt, wallet);
  const deliveries = await sendNotices(deps, noticeBody(payment, mode), mode, payment.forwardedTo !== null);
  return { payment, deliveries };
}

/**
 * The notices of one payment, sent as its mode says. Not forwarded (`reported` false: settlement named
 * no wallet): the processor keeps the money and reports nothing yet.
 */
async function sendNotices(deps: EmulatorDependencies, notice: NoticeBody, mode: NoticeMode, reported: boolean): Promise<NoticeDelivery[]> {
  const deliveries: NoticeDelivery[] = [];
  if (reported && mode === 'on-time') deliveries.push(await deps.notices.send(notice));
  if (reported && (mode === 'late' || mode === 'mismatch')) deliveries.push(await deps.notices.send(notice, deps.lateNoticeMs));
  if (reported && mode === 'duplicate') {
    const first = await deps.notices.send(notice);
    deliveries.push(first, await deps.notices.send(notice, 0, first.id));
  }
  if (reported && mode === 'out-of-order') {
    // The original was made a minute ago but is delivered after its re-sent copy (a new id).
    const madeAt = new Date(Date.now() - 60_000);
    const resent = await deps.notices.send(notice);
    deliveries.push(resent, await deps.notices.send(notice, 0, undefined, madeAt));
  }
  return deliveries;
}
