// Risk covered: one merchant reads another merchant's session, or Test and Live data leak into each other, or a strange id escapes as something other than 404 not_found.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bodyOf, createSession, expectError, retrieve, type Json } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

let platform: Platform;
let alice: TestMerchant;
let bob: TestMerchant;
let aliceTest: Json;
let aliceLive: Json;

beforeAll(async () => {
  platform = await startPlatform();
  [alice, bob] = await Promise.all([platform.merchant(), platform.merchant()]);
  [aliceTest, aliceLive] = await Promise.all([createSession(platform, alice.testKey), createSession(platform, alice.liveKey)]);
});
afterAll(async () => {
  await platform.stop();
});

const idOf = (session: Json): string => String(session['id']);

describe('a session is visible only to its own account and mode', () => {
  it('keeps every answer in its own account and mode when many reads and creates arrive at once (grouped calls, docs/adr/0064)', async () => {
    // Concurrent requests of two accounts and both modes go to checkout in grouped calls: each caller's
    // own answer, never a neighbour's scope.
    const burst = Array.from({ length: 20 }, () => [
      { key: alice.testKey, id: idOf(aliceTest), expected: 200 },
      { key: alice.liveKey, id: idOf(aliceLive), expected: 200 },
      { key: bob.testKey, id: idOf(aliceTest), expected: 404 },
      { key: alice.liveKey, id: idOf(aliceTest), expected: 404 },
      { key: bob.liveKey, id: idOf(aliceLive), expected: 404 },
    ]).flat();
    const [answers, created] = await Promise.all([
      Promise.all(burst.map(async ({ key, id }) => retrieve(platform, key, id))),
      Promise.all(Array.from({ length: 10 }, (_, i) => createSession(platform, i % 2 === 0 ? bob.testKey : bob.liveKey))),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(burst.map(({ expected }) => expected));
    for (const [index, answer] of answers.entries()) {
      if (burst[index]!.expected === 404) await expectError(answer, 404, 'not_found');
      else expect((await bodyOf(answer))['id']).toBe(burst[index]!.id);
    }
    expect(created.map((session) => session['livemode'])).toEqual(Array.from({ length: 10 }, (_, i) => i % 2 === 1));
    for (const [i, session] of created.entries()) {
      expect((await retrieve(platform, i % 2 === 0 ? bob.testKey : bob.liveKey, idOf(session))).status).toBe(200);
      await expectError(await retrieve(platform, alice.testKey, idOf(session)), 404, 'not_found');
    }
  });

  it('lets the owner read it in its own mode', async () => {
    const test = await retrieve(platform, alice.testKey, idOf(aliceTest));
    expect(test.status).toBe(200);
    expect(await bodyOf(test)).toEqual(aliceTest);
    const live = await retrieve(platform, alice.liveKey, idOf(aliceLive));
    expect(live.status).toBe(200);
    expect(await bodyOf(live)).toEqual(aliceLive);
  });

  it('answers 404 not_found for a session of another account, with either of its keys', async () => {
    await expectError(await retrieve(platform, bob.testKey, idOf(aliceTest)), 404, 'not_found');
    await expectError(await retrieve(platform, bob.liveKey, idOf(aliceLive)), 404, 'not_found');
    await expectError(await retrieve(platform, bob.liveKey, idOf(aliceTest)), 404, 'not_found');
    await expectError(await retrieve(platform, bob.testKey, idOf(aliceLive)), 404, 'not_found');
  });

  it('answers 404 not_found for a session of the other mode of the same account', async () => {
    await expectError(await retrieve(platform, alice.liveKey, idOf(aliceTest)), 404, 'not_found');
    await expectError(await retrieve(platform, alice.testKey, idOf(aliceLive)), 404, 'not_found');
  });

  it('answers the same body for a foreign session as for one that does not exist', async () => {
    const foreign = await bodyOf(await retrieve(platform, bob.testKey, idOf(aliceTest)));
    const missing = await bodyOf(await retrieve(platform, bob.testKey, 'pay_01ARZ3NDEKTSV4RRFFQ69G5FAV'));
    expect(foreign).toEqual(missing);
  });

  it('lets another key of the same account and mode read it', async () => {
    const { secret } = await platform.operations.createKey(alice.accountId, 'test');
    const read = await retrieve(platform, secret, idOf(aliceTest));
    expect(read.status).toBe(200);
    expect(await bodyOf(read)).toEqual(aliceTest);
  });
});

describe('an id that is not a session of the caller is 404 not_found', () => {
  it.each([
    ['a well-formed id never issued', 'pay_01ARZ3NDEKTSV4RRFFQ69G5FAV'],
    ['a session id with its case changed', () => idOf(aliceTest).toLowerCase()],
    ['a session id with a character dropped', () => idOf(aliceTest).slice(0, -1)],
    ['a session id with a character added', () => `${idOf(aliceTest)}0`],
    ['a session id with another prefix', () => idOf(aliceTest).replace('pay_', 'cus_')],
    ['a bare prefix', 'pay_'],
    ['plain garbage', 'garbage'],
    ['a number', '12345'],
    ['a long id', `pay_${'A'.repeat(5000)}`],
    ['SQL text', encodeURIComponent("pay_' OR '1'='1")],
    ['an encoded slash', encodeURIComponent('pay_01ARZ3NDEKTSV4RRFFQ69G5FAV/../x')],
    ['unicode', encodeURIComponent('pay_ÄÖÜ😀')],
    ['a malformed percent-encoding', 'pay_%E0%A4%A'],
    ['a lone percent sign', '%'],
  ])('answers 404 not_found for %s', async (_name, id) => {
    const value = typeof id === 'string' ? id : id();
    await expectError(await retrieve(platform, alice.testKey, value), 404, 'not_found');
  });
});
