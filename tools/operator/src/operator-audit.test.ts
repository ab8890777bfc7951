import { describe, expect, it } from '@jest/globals';
import { operatorActionOf } from './operator-audit.ts';

describe('operator actions for the audit log', () => {
  it('names the account, the object and the mode of a change', () => {
    expect(operatorActionOf(['payments', 'accept-held', 'acct_1', 'pay_1'], { mode: 'live' })).toEqual({
      words: 'payments accept-held',
      accountId: 'acct_1',
      target: 'pay_1',
      mode: 'live',
    });
    expect(operatorActionOf(['webhooks', 'endpoints', 'disable', 'acct_1', 'we_1'], { mode: 'test' })).toMatchObject({
      words: 'webhooks endpoints disable',
      accountId: 'acct_1',
      target: 'we_1',
    });
    expect(operatorActionOf(['keys', 'revoke', 'key_1'], {})).toMatchObject({ accountId: undefined, target: 'key_1' });
  });

  it('reads are not actions, nor a note only looked at', () => {
    expect(operatorActionOf(['accounts', 'list'], {})).toBeNull();
    expect(operatorActionOf(['webhooks', 'events', 'list', 'acct_1'], { mode: 'test' })).toBeNull();
    expect(operatorActionOf(['customers', 'note', 'acct_1', 'cus_1'], { mode: 'test' })).toBeNull();
    expect(operatorActionOf(['customers', 'note', 'acct_1', 'cus_1'], { mode: 'test', set: 'x' })).toMatchObject({
      words: 'customers note',
    });
  });
});
