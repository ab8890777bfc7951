import { describe, expect, it } from '@jest/globals';
import { isId } from '@hc/ids';
import { webhookEventId } from './event-id.ts';

describe('webhook event ids', () => {
  it('are derived from the source event: the same source, the same id', () => {
    const id = webhookEventId('pay_01JD.payment.paid.vrd_01');
    expect(webhookEventId('pay_01JD.payment.paid.vrd_01')).toBe(id);
    expect(webhookEventId('pay_01JD.payment.paid.vrd_02')).not.toBe(id);
  });

  it('have the shape of an evt_ id', () => {
    const id = webhookEventId('pay_x.payment.started');
    expect(id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isId('event', id)).toBe(true);
  });

  it('do not collide over many sources', () => {
    const ids = new Set(Array.from({ length: 5000 }, (_, i) => webhookEventId(`pay_${i}.payment.paid`)));
    expect(ids.size).toBe(5000);
  });
});
