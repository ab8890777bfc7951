import { expect, it } from '@jest/globals';
import { withoutAddresses } from './smtp-sender.ts';

it('keeps no address of a server’s refusal (it goes to the mail log and the service log)', () => {
  expect(
    withoutAddresses("Can't send mail - all recipients were rejected: 550 5.1.1 <ann.lee+shop@example.com>: Recipient address rejected"),
  ).toBe("Can't send mail - all recipients were rejected: 550 5.1.1 <<address>>: Recipient address rejected");
  expect(withoutAddresses('451 Try again later')).toBe('451 Try again later');
});
