import { describe, expect, it } from '@jest/globals';
import { ACTIONS, abilities, leavesAnOwner, may, PERMITTED, ROLES } from './roles.ts';

describe('roles', () => {
  it('a viewer changes nothing but its own sign-in and reads and exports', () => {
    const allowed = ACTIONS.filter((action) => may('viewer', action));
    expect(allowed).toEqual(['self.two_factor', 'self.dismiss_notice', 'export.payments', 'export.statement']);
  });

  it('a developer reaches keys, endpoints and events, never the wallet, money or the team', () => {
    expect(may('developer', 'api_key.create')).toBe(true);
    expect(may('developer', 'endpoint.rotate_secret')).toBe(true);
    expect(may('developer', 'event.resend')).toBe(true);
    for (const action of ['payout_wallet.change', 'customer.erase', 'payment.accept', 'team.invite', 'audit.read'] as const)
      expect(may('developer', action)).toBe(false);
  });

  it('only owner and admin change the wallet, erase and accept held payments; only the owner manages the team', () => {
    for (const action of ['payout_wallet.change', 'customer.erase', 'payment.accept'] as const)
      expect(ROLES.filter((role) => may(role, action))).toEqual(['owner', 'admin']);
    expect(ROLES.filter((role) => may(role, 'team.remove'))).toEqual(['owner']);
  });

  it('the owner may do everything, and every action names only known roles', () => {
    expect(Object.values(abilities('owner')).every(Boolean)).toBe(true);
    for (const roles of Object.values(PERMITTED)) for (const role of roles) expect(ROLES).toContain(role);
  });

  it('the last owner cannot be demoted or removed; another owner can', () => {
    expect(leavesAnOwner(1, { from: 'owner', to: 'admin' })).toBe(false);
    expect(leavesAnOwner(1, { from: 'owner', to: null })).toBe(false);
    expect(leavesAnOwner(2, { from: 'owner', to: null })).toBe(true);
    expect(leavesAnOwner(1, { from: 'admin', to: null })).toBe(true);
    expect(leavesAnOwner(1, { from: 'owner', to: 'owner' })).toBe(true);
  });
});
