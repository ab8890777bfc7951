import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { createLogger } from './index.ts';

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('createLogger', () => {
  it('writes JSON lines naming the service', () => {
    const out = capture();
    createLogger('checkout', { destination: out.stream }).info({ id: 'pay_1' }, 'created');
    const line = JSON.parse(out.text()) as Record<string, unknown>;
    expect(line).toMatchObject({ service: 'checkout', id: 'pay_1', msg: 'created' });
  });

  it('never prints a bearer key or secret', () => {
    const out = capture();
    const log = createLogger('gateway', { destination: out.stream });
    log.info({ req: { headers: { authorization: 'Bearer sk_test_abc' } } }, 'request');
    log.info({ apiKey: 'sk_test_abc', nested: { secret: 'whsec_x' } }, 'key issued');
    expect(out.text()).not.toContain('sk_test_abc');
    expect(out.text()).not.toContain('whsec_x');
  });
});
