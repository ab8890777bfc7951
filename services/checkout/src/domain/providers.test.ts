import { describe, expect, it } from '@jest/globals';
import { DEFAULT_PROVIDERS, selectProviders } from './providers.ts';

const pick = (amount: string, currency: 'USD' | 'EUR' | 'GBP' | 'CAD' | 'AUD', country: string | null) =>
  selectProviders(DEFAULT_PROVIDERS, { id: 'pay_1', amount, currency, country });

describe('provider selection', () => {
  it('recommends exactly one, the best match first', () => {
    const offers = pick('25.00', 'EUR', 'DE');
    expect(offers.filter((o) => o.recommended)).toHaveLength(1);
    expect(offers[0]!.recommended).toBe(true);
    expect(offers.map((o) => o.id)).toEqual(['walletpay', 'eurocard', 'cardrail']);
  });

  it('depends on amount, currency and country', () => {
    expect(pick('25.00', 'USD', 'US').map((o) => o.id)).toEqual(['walletpay', 'cardrail']);
    expect(pick('25.00', 'USD', null).map((o) => o.id)).toEqual(['cardrail']);
    expect(pick('60000.00', 'USD', 'US').map((o) => o.id)).toEqual(['highline']);
    expect(pick('60000.00', 'EUR', 'FR').map((o) => o.id)).toEqual(['highline']);
    expect(pick('3.00', 'GBP', 'GB').map((o) => o.id)).toEqual(['walletpay', 'cardrail']);
  });

  it('offers nothing where no provider may serve', () => {
    expect(pick('25.00', 'USD', 'KP')).toEqual([]);
  });

  it('fills the handoff address for this payment', () => {
    const [first] = pick('25.00', 'USD', null);
    expect(first!.handoffUrl).toBe('https://checkout.cardrail.example/buy?ref=pay_1&amount=25.00&currency=USD');
  });
});

describe('the shipped providers’ notes', () => {
  it('speak to a card buyer in plain words: no coin, chain or crypto (issue 49)', () => {
    for (const provider of DEFAULT_PROVIDERS) expect(provider.note).not.toMatch(/coin|chain|crypto|USDC|USDT|Polygon|wallet address/i);
  });
});
