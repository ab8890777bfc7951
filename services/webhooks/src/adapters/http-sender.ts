import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptResult } from '../domain/attempt-outcome.ts';
import type { ResolvedAddress } from './target-resolver.ts';

/** What the attempt log keeps of a response body. */
export const RESPONSE_SNIPPET_BYTES = 1024;

export interface HttpAttempt {
  readonly url: URL;
  /** The address the SSRF check passed: the connection goes there and nowhere else. */
  readonly address: ResolvedAddress;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly timeoutMs: number;
  /** Extra trusted CA certificates (PEM); tests use a self-signed receiver. */
  readonly ca?: string | undefined;
}

/**
 * POSTs one delivery with node:http(s). The host name stays in the URL (Host header, TLS SNI and
 * certificate check) while the socket connects to the pinned address through a lookup that answers
 * with it. Redirects are not followed (node:http never does). The whole attempt, connect included,
 * is bounded by `timeoutMs`; at most 1 KiB of the response body is read.
 */
export function sendHttpAttempt(attempt: HttpAttempt): Promise<AttemptResult> {
  const { url, address } = attempt;
  const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = transport.request(url, {
      method: 'POST',
      headers: { ...attempt.headers, 'content-length': String(Buffer.byteLength(attempt.body)) },
      lookup: pinnedLookup,
      agent: false,
      ...(attempt.ca === undefined ? {} : { ca: attempt.ca }),
    });
    const timer = setTimeout(() => {
      finish({ kind: 'error', error: `timeout after ${attempt.timeoutMs} ms` });
      request.destroy();
    }, attempt.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'error', error: error.code ?? error.message }));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (): void => {
        const retryAfter = response.headers['retry-after'];
        finish({
          kind: 'response',
          statusCode: response.statusCode ?? 0,
          retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
          snippet: Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET_BYTES).toString('utf8'),
        });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_SNIPPET_BYTES) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(attempt.body);
  });
}
