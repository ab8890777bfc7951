import { describe, expect, it } from '@jest/globals';
import { describeEvents, enabledEventsFrom } from './endpoint-forms.ts';

describe('endpoint form', () => {
  it('reads "all" or nothing ticked as every type, and ticked types as the list (known, once)', () => {
    expect(enabledEventsFrom('all', ['payment.paid'])).toEqual([]);
    expect(enabledEventsFrom('some', 'payment.paid')).toEqual(['payment.paid']);
    expect(enabledEventsFrom('some', ['payment.paid', 'payment.held', 'payment.paid', 'evil.type', 7])).toEqual([
      'payment.paid',
      'payment.held',
    ]);
    expect(enabledEventsFrom('some', undefined)).toEqual([]);
  });

  it('describes a filter in words', () => {
    expect(describeEvents(['*'])).toBe('All events');
    expect(describeEvents([])).toBe('All events');
    expect(describeEvents(['payment.paid', 'payment.held'])).toBe('payment.paid, payment.held');
  });
});
