// Risk covered: the published DDL drifting from the schema the tests (and the relay) were proven
// against, and naming helpers producing stream names or subjects NATS refuses.
import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contextSubjects, OUTBOX_TABLE_SQL, prefixedSubject, streamName } from '../src/index.ts';
import { markPublishedAndCommitSql } from '../src/relay.ts';
import { MIGRATIONS } from './support.ts';

describe('OUTBOX_TABLE_SQL', () => {
  it('is exactly the migration the integration tests run on', async () => {
    const fixture = await readFile(join(MIGRATIONS, '20260101000000_outbox', 'migration.sql'), 'utf8');
    expect(fixture).toBe(OUTBOX_TABLE_SQL);
  });
});

describe('naming', () => {
  it('uses one stream per context, prefixed in tests and bare in production', () => {
    expect(streamName('', 'checkout')).toBe('CHECKOUT');
    expect(contextSubjects('', 'checkout')).toBe('checkout.>');
    expect(prefixedSubject('', 'checkout.payment.paid')).toBe('checkout.payment.paid');
    expect(streamName('t_events_ab12', 'checkout')).toBe('T_EVENTS_AB12_CHECKOUT');
    expect(contextSubjects('t_events_ab12', 'checkout')).toBe('t_events_ab12.checkout.>');
  });
});

describe('markPublishedAndCommitSql (the relay inlines seqs to mark and commit in one round trip)', () => {
  it('writes the seqs read from the outbox as a bigint array literal, then COMMIT', () => {
    expect(markPublishedAndCommitSql(['7', '8', '9223372036854775807'])).toBe(
      "UPDATE outbox_messages SET published_at = now() WHERE seq = ANY('{7,8,9223372036854775807}'::bigint[]); COMMIT",
    );
  });

  it('refuses anything that is not bigint text, so nothing else is ever inlined', () => {
    for (const bad of ["1'); DROP TABLE outbox_messages; --", '1,2', '-1', '', '12345678901234567890']) {
      expect(() => markPublishedAndCommitSql(['1', bad])).toThrow(/is not a seq/);
    }
  });
});
