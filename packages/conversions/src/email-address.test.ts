import { describe, expect, it } from '@jest/globals';
import { normalEmailAddress } from './email-address.ts';

describe('the one email address rule (issue 47 item 7)', () => {
  it.each([
    ['Jane.Doe@Example.COM', 'jane.doe@example.com'],
    ['  ann+shop@mail.example.co.uk ', 'ann+shop@mail.example.co.uk'],
    ["o'brien_x-y@sub-domain.example", "o'brien_x-y@sub-domain.example"],
    ['jürgen@bücher.de', 'jürgen@bücher.de'],
    [`${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`],
  ])('takes %j as %j', (raw, expected) => {
    expect(normalEmailAddress(raw)).toBe(expected);
  });

  it.each([
    ['a domain literal', 'a@[127.0.0.1]'],
    ['an IPv6 domain literal', 'a@[IPv6:::1]'],
    ['a bare IP address', 'a@127.0.0.1'],
    ['a stray >', 'a>@example.com'],
    ['a > at the end', 'a@example.com>'],
    ['angle brackets', '<a@example.com>'],
    ['a display name', 'Ann <a@example.com>'],
    ['a quoted local part', '"a b"@example.com'],
    ['a comment', 'a(comment)@example.com'],
    ['a second address', 'a@example.com,b@example.com'],
    ['a line break', 'a@example.com\r\nBcc: b@example.com'],
    ['a NUL', 'a\u0000@example.com'],
    ['a space', 'a b@example.com'],
    ['no @', 'jane.example.com'],
    ['nothing before @', '@example.com'],
    ['no domain', 'jane@'],
    ['two @', 'jane@doe@example.com'],
    ['a one-label domain', 'a@localhost'],
    ['an empty label', 'a@example..com'],
    ['a label starting with a hyphen', 'a@-example.com'],
    ['a leading dot', '.a@example.com'],
    ['two dots in a row', 'a..b@example.com'],
    ['a local part over 64', `${'a'.repeat(65)}@example.com`],
    ['over 254 in all', `a@${`${'b'.repeat(60)}.`.repeat(4)}${'c'.repeat(10)}.io`],
    ['empty', ''],
  ])('refuses %s (%j)', (_name, raw) => {
    expect(normalEmailAddress(raw)).toBeUndefined();
  });
});
