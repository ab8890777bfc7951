// Risk covered: security headers taken once from helmet drifting from what helmet itself sets on a
// response (a weaker CSP, a header lost), a per-response script source (the pages' CSP nonce) written
// into one response's policy and then served to another, or a header helmet removes left in place.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { headersOf, strictPageHeaders } from '../src/index.ts';

/** A response that records what is done to its headers, starting with Express's X-Powered-By. */
function recordingResponse(): { res: ServerResponse; headers: Map<string, string> } {
  const headers = new Map<string, string>([['x-powered-by', 'Express']]);
  const res = {
    locals: {} as Record<string, unknown>,
    setHeader: (name: string, value: string | number) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  return { res: res as unknown as ServerResponse, headers };
}

function run(middlewares: RequestHandler[], nonce: string): Map<string, string> {
  const { res, headers } = recordingResponse();
  (res as unknown as { locals: Record<string, unknown> }).locals['nonce'] = nonce;
  for (const middleware of middlewares) {
    let called = false;
    void middleware({} as never, res as never, () => (called = true));
    expect(called).toBe(true);
  }
  return headers;
}

const nonceSource = (_req: IncomingMessage, res: ServerResponse): string =>
  `'nonce-${(res as unknown as { locals: Record<string, string> }).locals['nonce']}'`;

describe('strictPageHeaders', () => {
  it('sets what helmet itself sets per response, a per-response source included, plus no-store', () => {
    // The same policy run through helmet on each response: the source of truth.
    const helmetItself = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'none'"],
          scriptSrc: [nonceSource, "'strict-dynamic'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'"],
          connectSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          baseUri: ["'none'"],
        },
      },
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginEmbedderPolicy: false,
    });
    const taken = strictPageHeaders([nonceSource, "'strict-dynamic'"]);
    for (const nonce of ['Zm9vYmFy', 'YmF6cXV4']) {
      const expected = run([helmetItself as unknown as RequestHandler], nonce);
      expected.set('cache-control', 'no-store');
      expect(run(taken, nonce)).toEqual(expected);
    }
    const [first, second] = [run(taken, 'Zm9vYmFy'), run(taken, 'YmF6cXV4')];
    expect(first.get('content-security-policy')).toContain("script-src 'nonce-Zm9vYmFy' 'strict-dynamic';");
    expect(second.get('content-security-policy')).toContain("script-src 'nonce-YmF6cXV4' 'strict-dynamic';");
    expect(first.has('x-powered-by')).toBe(false);
    expect(first.get('content-security-policy')).not.toContain('hc-slot-');
  });
});

describe('headersOf', () => {
  it('records the headers helmet sets and the ones it removes, and refuses a middleware that does not finish at once', () => {
    const { set, removed } = headersOf(helmet({ contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"] } } }));
    expect(set).toContainEqual(['Content-Security-Policy', "default-src 'none'"]);
    expect(set.map(([name]) => name)).toContain('X-Content-Type-Options');
    expect(removed).toEqual(['X-Powered-By']);
    const never = (() => undefined) as unknown as ReturnType<typeof helmet>;
    expect(() => headersOf(never)).toThrow('helmet did not finish synchronously');
  });
});
