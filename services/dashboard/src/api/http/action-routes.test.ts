import { describe, expect, it } from '@jest/globals';
import { actionOf } from './action-routes.ts';

describe('the action of an address', () => {
  it('finds the action and its object', () => {
    expect(actionOf('POST', '/dashboard/live/settings/payout-wallet')).toEqual({
      action: 'payout_wallet.change',
      params: { mode: 'live' },
    });
    expect(actionOf('POST', '/dashboard/test/developers/endpoints/we_1/rotate')).toEqual({
      action: 'endpoint.rotate_secret',
      params: { mode: 'test', id: 'we_1' },
    });
    expect(actionOf('POST', '/dashboard/test/developers/endpoints/we_1')).toMatchObject({ action: 'endpoint.update' });
    expect(actionOf('HEAD', '/dashboard/test/audit')).toMatchObject({ action: 'audit.read' });
  });

  it('has none for a read, a longer address or another method (authorize refuses an unknown change)', () => {
    expect(actionOf('GET', '/dashboard/test/payments')).toBeNull();
    expect(actionOf('POST', '/dashboard/test/settings/payout-wallet/extra')).toBeNull();
    expect(actionOf('PUT', '/dashboard/test/settings/payout-wallet')).toBeNull();
    expect(actionOf('POST', '/dashboard/test/payments/a/b/accept')).toBeNull();
  });
});
