/**
 * The customers context's objects, as the rest of the code sees them (the store maps rows to these).
 * A customer is one buyer email in one mode of one account; an order is one checkout session.
 */
export interface Scope {
  readonly accountId: string;
  readonly livemode: boolean;
}

/** The spec's address object; every key present, null where the merchant sent nothing. */
export interface Address {
  name: string | null;
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
}

/** The store an order came from, and the buyer's customer id in that store. */
export interface StoreAccount {
  platform: string;
  storeId: string;
  storeName: string | null;
  customerId: string | null;
}

/** The personal details an order carries and a customer keeps (rule 3). */
export interface ContactDetails {
  name: string | null;
  phone: string | null;
  shippingAddress: Address | null;
  billingAddress: Address | null;
}

/** Per currency code, a two-decimal string. */
export type SpentByCurrency = Readonly<Record<string, string>>;

/** What a customer's orders add up to. */
export interface CustomerCounters {
  ordersCount: number;
  paidOrdersCount: number;
  spent: SpentByCurrency;
  lastOrderAt: Date | null;
}

export interface Customer extends Scope, ContactDetails, CustomerCounters {
  id: string;
  /** Lowercased; null once erased. */
  email: string | null;
  storeAccounts: StoreAccount[];
  createdAt: Date;
  erased: boolean;
}

export interface Order extends Scope, ContactDetails {
  /** The checkout session's pay_ id. */
  id: string;
  customerId: string | null;
  email: string | null;
  storeAccount: StoreAccount | null;
  amount: string;
  currency: string;
  /** The payment's status as checkout last reported it. */
  status: string;
  /** When that status was reported (event time): older events never set it back. */
  statusAt: Date;
  createdAt: Date;
  paidAt: Date | null;
  /** Highest session.started revision applied; 0 = the email given at creation. */
  emailRevision: number;
  /** A payment.paid arrived: the order counts once in its customer's paid_orders_count. */
  paid: boolean;
  /** Sum of its payment.paid amounts: what the order adds to its customer's `spent`. */
  paidAmount: string;
}

export const NO_CONTACT_DETAILS: ContactDetails = { name: null, phone: null, shippingAddress: null, billingAddress: null };
