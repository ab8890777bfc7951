/**
 * The payment link and checkout forms (pure): what the merchant typed → the request the checkout
 * admin service takes. The service owns every rule and error code (the operator CLI gets the same);
 * here only "left empty" becomes "not given", so an optional field left blank is not refused as an
 * empty value, and the inputs of the price choice not taken are left out.
 */

export type FormValues = Readonly<Record<string, string>>;

export const LINK_FIELDS = [
  'amount',
  'currency',
  'description',
  'customer_name',
  'memo',
  'customer_email',
  'reference',
  'lifetime',
] as const;
export const PLAN_ROWS = 4;

export interface LinkRequest {
  amount: string;
  currency: string;
  description: string;
  customerName: string | undefined;
  memo: string | undefined;
  customerEmail: string | undefined;
  reference: string | undefined;
  lifetime: string | undefined;
}

export interface CheckoutRequest {
  kind: string;
  description: string;
  currency: string;
  amount: string | undefined;
  minAmount: string | undefined;
  maxAmount: string | undefined;
  plans: { label: string; amount: string }[];
}

const given = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());
const text = (values: FormValues, name: string): string => values[name] ?? '';

export function linkRequest(values: FormValues): LinkRequest {
  return {
    amount: text(values, 'amount').trim(),
    currency: text(values, 'currency'),
    description: text(values, 'description'),
    customerName: given(values['customer_name']),
    memo: given(values['memo']),
    customerEmail: given(values['customer_email']),
    reference: given(values['reference']),
    lifetime: given(values['lifetime']),
  };
}

/** The names of a checkout form's inputs: kind, price (fixed | range), amounts, and plan rows. */
export function checkoutFieldNames(): string[] {
  const plans = Array.from({ length: PLAN_ROWS }, (_, i) => [`plan_label_${i + 1}`, `plan_amount_${i + 1}`]).flat();
  return ['kind', 'description', 'currency', 'price', 'amount', 'min_amount', 'max_amount', ...plans];
}

/** The plan rows the merchant filled in (a row with a label or a price); blank rows are not plans. */
export function planRows(values: FormValues): { label: string; amount: string }[] {
  return Array.from({ length: PLAN_ROWS }, (_, i) => ({
    label: text(values, `plan_label_${i + 1}`).trim(),
    amount: text(values, `plan_amount_${i + 1}`).trim(),
  })).filter((plan) => plan.label !== '' || plan.amount !== '');
}

export function checkoutRequest(values: FormValues): CheckoutRequest {
  const kind = text(values, 'kind');
  const base = { kind, description: text(values, 'description'), currency: text(values, 'currency') };
  if (kind === 'pricing_table') return { ...base, amount: undefined, minAmount: undefined, maxAmount: undefined, plans: planRows(values) };
  if (values['price'] === 'range')
    return {
      ...base,
      amount: undefined,
      minAmount: text(values, 'min_amount').trim(),
      maxAmount: text(values, 'max_amount').trim(),
      plans: [],
    };
  return { ...base, amount: text(values, 'amount').trim(), minAmount: undefined, maxAmount: undefined, plans: [] };
}

/**
 * What a merchant pastes into their own site for a widget checkout (docs/payment-links.md): the pages'
 * widget script with the checkout's id. The pages' address is the one the checkout's own url starts
 * with ({PUBLIC_BASE_URL}/c/{id}), so the snippet always points where the checkout lives.
 */
export function widgetSnippet(checkoutUrl: string, id: string): string {
  const suffix = `/c/${id}`;
  const base = checkoutUrl.endsWith(suffix) ? checkoutUrl.slice(0, -suffix.length) : new URL(checkoutUrl).origin;
  return `<script src="${base}/pay/assets/widget.js" data-checkout="${id}" async></script>`;
}
