import { describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
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

  it('puts the active span trace_id and span_id on every line logged inside it, and none outside', () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    try {
      const out = capture();
      const log = createLogger('webhooks', { destination: out.stream });
      const span = trace.wrapSpanContext({
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        spanId: '00f067aa0ba902b7',
        traceFlags: TraceFlags.SAMPLED,
      });
      context.with(trace.setSpan(context.active(), span), () => log.info('inside'));
      log.info('outside');
      const [inside, outside] = out
        .text()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(inside).toMatchObject({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: '00f067aa0ba902b7' });
      expect(outside).not.toHaveProperty('trace_id');
    } finally {
      context.disable();
    }
  });
});
