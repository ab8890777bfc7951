import { describe, expect, it } from '@jest/globals';
import { checkoutRequest, linkRequest, widgetSnippet } from './link-forms.ts';

describe('linkRequest', () => {
  it('passes the required fields as typed and leaves blank optional ones out (the service would refuse an empty name)', () => {
    expect(
      linkRequest({ amount: ' 25 ', currency: 'EUR', description: 'Table repair', customer_name: '  ', memo: 'Invoice 12', lifetime: '' }),
    ).toEqual({
      amount: '25',
      currency: 'EUR',
      description: 'Table repair',
      customerName: undefined,
      memo: 'Invoice 12',
      customerEmail: undefined,
      reference: undefined,
      lifetime: undefined,
    });
  });
});

describe('checkoutRequest', () => {
  it('a fixed price sends only amount; a range only min and max', () => {
    const fixed = checkoutRequest({ kind: 'page', description: 'Mug', currency: 'EUR', price: 'fixed', amount: '12', min_amount: '1' });
    expect(fixed).toMatchObject({ amount: '12', minAmount: undefined, maxAmount: undefined, plans: [] });
    const range = checkoutRequest({
      kind: 'widget',
      description: 'Tip',
      currency: 'EUR',
      price: 'range',
      amount: '12',
      min_amount: '1',
      max_amount: '50',
    });
    expect(range).toMatchObject({ amount: undefined, minAmount: '1', maxAmount: '50', plans: [] });
  });

  it('a pricing table sends the filled plan rows in order, and no amount', () => {
    const table = checkoutRequest({
      kind: 'pricing_table',
      description: 'Hosting',
      currency: 'EUR',
      amount: '5',
      plan_label_1: 'Basic',
      plan_amount_1: '9',
      plan_label_3: 'Team',
      plan_amount_3: '99',
      plan_label_4: '',
      plan_amount_4: '',
    });
    expect(table).toMatchObject({
      amount: undefined,
      plans: [
        { label: 'Basic', amount: '9' },
        { label: 'Team', amount: '99' },
      ],
    });
  });

  it('a half-filled plan row is sent, so the service names what is missing', () => {
    expect(checkoutRequest({ kind: 'pricing_table', plan_amount_2: '9' }).plans).toEqual([{ label: '', amount: '9' }]);
  });
});

describe('widgetSnippet', () => {
  it('points at the widget script where the checkout lives, with its id', () => {
    expect(widgetSnippet('https://pay.example.test/c/chk_1', 'chk_1')).toBe(
      '<script src="https://pay.example.test/pay/assets/widget.js" data-checkout="chk_1" async></script>',
    );
    expect(widgetSnippet('https://example.test/shop/c/chk_2', 'chk_2')).toBe(
      '<script src="https://example.test/shop/pay/assets/widget.js" data-checkout="chk_2" async></script>',
    );
  });
});
