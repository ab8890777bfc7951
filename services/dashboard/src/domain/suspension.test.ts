import { describe, expect, it } from '@jest/globals';
import { ACTIONS } from './roles.ts';
import { FROZEN_WHEN_SUSPENDED, frozenBySuspension } from './suspension.ts';

describe('what suspension freezes', () => {
  it('refuses the frozen actions to an account that is not active, and nothing else', () => {
    for (const action of ACTIONS) {
      expect({ action, active: frozenBySuspension(action, 'active') }).toEqual({ action, active: false });
      expect({ action, suspended: frozenBySuspension(action, 'suspended') }).toEqual({
        action,
        suspended: FROZEN_WHEN_SUSPENDED.has(action),
      });
    }
    expect(frozenBySuspension('team.invite', undefined)).toBe(true);
  });

  it('leaves open what only narrows: revoking, disabling, removing, cancelling, archiving, erasing', () => {
    for (const action of [
      'api_key.revoke',
      'endpoint.disable',
      'team.remove',
      'link.cancel',
      'checkout.archive',
      'customer.erase',
    ] as const)
      expect(FROZEN_WHEN_SUSPENDED.has(action)).toBe(false);
  });
});
