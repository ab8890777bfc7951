import { Decimal } from '@hc/money';
import type { CustomerCounters, Order, SpentByCurrency } from './customer.ts';

/**
 * How an order counts towards its customer: once in orders_count, once in paid_orders_count when any
 * of its payments was paid, and the sum of its paid payments in `spent`. Attaching an order to a
 * customer adds exactly this; moving it away (rule 5) subtracts exactly this, so the totals of all
 * customers always equal the sum over their orders, whatever the order in which events arrive.
 */
export type OrderContribution = Pick<Order, 'paid' | 'paidAmount' | 'currency' | 'createdAt'>;

/** spent[currency] + amount, exact, as a two-decimal string. A sum that reaches zero is dropped. */
export function addSpent(spent: SpentByCurrency, currency: string, amount: Decimal.Value): SpentByCurrency {
  const total = new Decimal(spent[currency] ?? '0').plus(amount);
  if (total.isNegative()) throw new Error(`spent in ${currency} would become negative (${total.toFixed(2)})`);
  const { [currency]: _previous, ...others } = spent;
  return total.isZero() ? others : { ...others, [currency]: total.toFixed(2) };
}

export function withOrderAdded(counters: CustomerCounters, order: OrderContribution): CustomerCounters {
  return {
    ordersCount: counters.ordersCount + 1,
    paidOrdersCount: counters.paidOrdersCount + (order.paid ? 1 : 0),
    spent: new Decimal(order.paidAmount).isZero() ? counters.spent : addSpent(counters.spent, order.currency, order.paidAmount),
    lastOrderAt: counters.lastOrderAt === null || order.createdAt > counters.lastOrderAt ? order.createdAt : counters.lastOrderAt,
  };
}

/**
 * The counters without a moved-away order. `lastOrderAt` must be given: it is the latest creation
 * among the orders the customer keeps, which only the store can know.
 */
export function withOrderRemoved(counters: CustomerCounters, order: OrderContribution, lastOrderAt: Date | null): CustomerCounters {
  if (counters.ordersCount < 1 || (order.paid && counters.paidOrdersCount < 1)) {
    throw new Error('cannot remove an order the customer does not count');
  }
  return {
    ordersCount: counters.ordersCount - 1,
    paidOrdersCount: counters.paidOrdersCount - (order.paid ? 1 : 0),
    spent: new Decimal(order.paidAmount).isZero()
      ? counters.spent
      : addSpent(counters.spent, order.currency, new Decimal(order.paidAmount).neg()),
    lastOrderAt,
  };
}

/**
 * A payment of an order already counted for the customer was paid: its amount joins `spent`, and
 * the order joins paid_orders_count unless an earlier payment of it already made it count.
 */
export function withPaymentPaid(counters: CustomerCounters, currency: string, amount: string, orderWasPaid: boolean): CustomerCounters {
  return {
    ...counters,
    paidOrdersCount: counters.paidOrdersCount + (orderWasPaid ? 0 : 1),
    spent: addSpent(counters.spent, currency, amount),
  };
}
