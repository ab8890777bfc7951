import { describe, expect, it } from '@jest/globals';
import { mergeTimelines, type PaymentTimelineEntry } from './payment-timeline.ts';

const at = (ms: number) => new Date(ms);
const line = (source: 'checkout' | 'settlement', kind: string, ms: number): PaymentTimelineEntry => ({
  source,
  kind,
  at: at(ms),
  detail: {},
});

describe('mergeTimelines', () => {
  it('orders by time, and at equal times puts created/started first and accepted last', () => {
    const merged = mergeTimelines(
      [line('checkout', 'created', 1), line('checkout', 'started', 1), line('checkout', 'accepted_by_merchant', 2)],
      [line('settlement', 'address_assigned', 1), line('settlement', 'verdict', 2)],
    );
    expect(merged.map((l) => l.kind)).toEqual(['created', 'started', 'address_assigned', 'verdict', 'accepted_by_merchant']);
  });

  it('keeps each source in its own order at equal times', () => {
    const merged = mergeTimelines(
      [],
      [line('settlement', 'notice_received', 5), line('settlement', 'forwarded', 5), line('settlement', 'verdict', 5)],
    );
    expect(merged.map((l) => l.kind)).toEqual(['notice_received', 'forwarded', 'verdict']);
  });

  it('puts an expiry before a later verdict', () => {
    const merged = mergeTimelines([line('checkout', 'expired', 10)], [line('settlement', 'verdict', 20)]);
    expect(merged.map((l) => l.kind)).toEqual(['expired', 'verdict']);
  });
});
