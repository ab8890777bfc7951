import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The shop's orders and the webhook events it handled, kept in one JSON file. A real shop uses its
 * database; what matters is what this shows: an order id that survives a restart (the checkout
 * session's Idempotency-Key is derived from it), and the handled event ids kept with the order changes
 * they caused, in one write. Each write goes to a temporary file, then is renamed over the old one:
 * a crash leaves the old file or the new one, never half of one. One process at a time owns the file.
 */
export interface Order {
  readonly id: string;
  readonly item: string;
  readonly amount: string;
  paymentId: string | null;
  status: 'awaiting_payment' | 'expired' | 'paid';
  /** How many times it was shipped: must never exceed 1. */
  fulfilments: number;
}

export interface HandledEvent {
  readonly id: string;
  readonly type: string;
  readonly paymentId: string | null;
}

interface ShopFile {
  /**
   * Made once with the file: part of every Idempotency-Key, so a second shop (or a wiped store)
   * counting orders from 1 again never meets the keys of the first (the API keeps them 24 hours).
   */
  readonly shopId: string;
  readonly lastOrderNumber: number;
  readonly orders: Order[];
  /** Every event handled, in arrival order, duplicates excluded. */
  readonly events: HandledEvent[];
}

export class ShopStore {
  readonly shopId: string;
  readonly orders = new Map<string, Order>();
  readonly events: HandledEvent[];
  private lastOrderNumber: number;
  private readonly handled = new Set<string>();
  private readonly file: string;

  constructor(file: string) {
    this.file = file;
    const kept = ShopStore.read(file);
    this.shopId = kept.shopId;
    this.lastOrderNumber = kept.lastOrderNumber;
    for (const order of kept.orders) this.orders.set(order.id, order);
    this.events = [...kept.events];
    for (const event of kept.events) this.handled.add(event.id);
    this.save();
  }

  private static read(file: string): ShopFile {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as ShopFile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return { shopId: randomUUID(), lastOrderNumber: 0, orders: [], events: [] };
    }
  }

  /** A new order, written before the API is called: its id (and so its key) is never given twice. */
  newOrder(item: string, amount: string): Order {
    this.lastOrderNumber += 1;
    const order: Order = { id: `ORD-${this.lastOrderNumber}`, item, amount, paymentId: null, status: 'awaiting_payment', fulfilments: 0 };
    this.orders.set(order.id, order);
    this.save();
    return order;
  }

  /** The Idempotency-Key of the order's checkout session: the same on every retry for this order. */
  idempotencyKey(order: Order): string {
    return `order-${this.shopId}-${order.id}`;
  }

  orderOfPayment(paymentId: string): Order | undefined {
    for (const order of this.orders.values()) if (order.paymentId === paymentId) return order;
    return undefined;
  }

  /** Claims an event id: false if it was handled already (or is being handled now). */
  claim(eventId: string): boolean {
    if (this.handled.has(eventId)) return false;
    this.handled.add(eventId);
    return true;
  }

  /** Gives up a claim whose handling failed, so the platform's redelivery is handled. */
  release(eventId: string): void {
    this.handled.delete(eventId);
  }

  /** Records a claimed event as handled, with whatever it changed in the orders, in one write. */
  handledEvent(event: HandledEvent): void {
    this.events.push(event);
    this.save();
  }

  save(): void {
    const contents: ShopFile = {
      shopId: this.shopId,
      lastOrderNumber: this.lastOrderNumber,
      orders: [...this.orders.values()],
      events: this.events,
    };
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(contents, null, 2)}\n`);
    renameSync(temporary, this.file);
  }
}
