import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { readCatalogue } from '@hc/i18n';
import { accepts, pageState, PAGE_STATES, STATE_VIEWS } from './page-states.ts';

const english = readCatalogue(join(import.meta.dirname, '..', '..', 'locales'), 'en');

describe('pageState', () => {
  it('shows an unstarted open session its details form and a started one its providers', () => {
    expect(pageState({ status: 'open', started: false, canceled: false, unavailable: false })).toBe('details');
    expect(pageState({ status: 'open', started: true, canceled: false, unavailable: false })).toBe('choose');
    expect(pageState({ status: 'pending', started: true, canceled: false, unavailable: false })).toBe('waiting');
  });

  it('gives every ended status its own view, and a held payment never the paid one', () => {
    for (const status of ['paid', 'held', 'failed', 'expired'] as const) {
      expect(pageState({ status, started: true, canceled: false, unavailable: false })).toBe(status);
    }
    expect(english[STATE_VIEWS.held.titleKey]).not.toMatch(/paid|received/i);
  });

  it('shows a canceled session as canceled, unless money reached it anyway: then where that money stands', () => {
    expect(pageState({ status: 'expired', started: false, canceled: true, unavailable: false })).toBe('canceled');
    expect(pageState({ status: 'held', started: true, canceled: true, unavailable: false })).toBe('held');
    expect(pageState({ status: 'paid', started: true, canceled: true, unavailable: false })).toBe('paid');
  });

  it('shows an unpaid session of a shop that cannot take payments as unavailable, whether started or pending', () => {
    for (const [status, started] of [
      ['open', false],
      ['open', true],
      ['pending', true],
    ] as const) {
      expect(pageState({ status, started, canceled: false, unavailable: true })).toBe('unavailable');
    }
    for (const action of ['start', 'provider', 'simulate'] as const) expect(accepts(action, 'unavailable')).toBe(false);
    expect(STATE_VIEWS.unavailable.simulate).toBe(false);
  });

  it('has a view for every state', () => {
    for (const state of PAGE_STATES) expect(STATE_VIEWS[state].template).toMatch(/\.njk$/);
  });
});

describe('accepts (the state enforcer)', () => {
  it('lets the buyer start again while unpaid but not once the payment went to a provider or ended', () => {
    expect(accepts('start', 'details')).toBe(true);
    expect(accepts('start', 'choose')).toBe(true);
    expect(accepts('start', 'waiting')).toBe(false);
    expect(accepts('start', 'paid')).toBe(false);
  });

  it('offers providers and Test outcomes only for a started, unpaid payment', () => {
    for (const action of ['provider', 'simulate'] as const) {
      expect(accepts(action, 'details')).toBe(false);
      expect(accepts(action, 'choose')).toBe(true);
      expect(accepts(action, 'waiting')).toBe(true);
      for (const ended of ['paid', 'held', 'failed', 'expired', 'canceled'] as const) expect(accepts(action, ended)).toBe(false);
    }
  });
});
