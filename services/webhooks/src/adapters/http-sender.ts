import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptResult } from '../domain/attempt-outcome.ts';
import type { ResolvedAddress } from './target-resolver.ts';

/** What the attempt log keeps of a response body. */
export const RESPONSE_SNIPPET_BYTES = 1024;
/** Sends of one attempt at most: the first, and again after kept-alive connections found closed. */
const MAX_SENDS = 3;
/** What a kept-alive connection closed by the receiver while idle fails with, before any answer. */
const CLOSED_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export interface HttpAttempt {
  readonly url: URL;
  /** The address the SSRF check passed: the connection goes there and nowhere else. */
  readonly address: ResolvedAddress;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly timeoutMs: number;
  /** Extra trusted CA certificates (PEM); tests use a self-signed receiver. */
  readonly ca?: string | undefined;
  /** Keep-alive connections to this endpoint on this checked address (delivery-connections.ts). */
  readonly agent: http.Agent;
}

interface SendOutcome {
  readonly result: AttemptResult;
  /** The send failed on a reused connection before any answer: it was closed while idle. */
  readonly closedConnection: boolean;
}

/**
 * POSTs one delivery with node:http(s). The host name stays in the URL (Host header, TLS SNI and
 * certificate check) while the socket connects to the pinned address through a lookup that answers
 * with it. Redirects are not followed (node:http never does). The whole attempt, connects included,
 * is bounded by `timeoutMs`; at most 1 KiB of the response body is read.
 *
 * Connections are kept alive (docs/adr/0111). A receiver may close an idle one just as we send on it:
 * that send fails at once with a reset and no answer, and is sent again, on another connection, within
 * the same deadline. The receiver may in rare cases have read it: deliveries are at least once and the
 * event id tells a repeat (docs/webhooks.md).
 */
export async function sendHttpAttempt(attempt: HttpAttempt): Promise<AttemptResult> {
  const deadline = performance.now() + attempt.timeoutMs;
  for (let sends = 1; ; sends += 1) {
    const { result, closedConnection } = await sendOnce(attempt, deadline);
    if (!closedConnection || sends >= MAX_SENDS || performance.now() >= deadline) return result;
  }
}

function sendOnce(attempt: HttpAttempt, deadline: number): Promise<SendOutcome> {
  const { url, address } = attempt;
  const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult, closedConnection = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ result, closedConnection });
    };
    const request = transport.request(url, {
      method: 'POST',
      headers: { ...attempt.headers, 'content-length': String(Buffer.byteLength(attempt.body)) },
      lookup: pinnedLookup,
      agent: attempt.agent,
      ...(attempt.ca === undefined ? {} : { ca: attempt.ca }),
    });
    const timer = setTimeout(
      () => {
        finish({ kind: 'error', error: `timeout after ${attempt.timeoutMs} ms` });
        request.destroy();
      },
      Math.max(0, deadline - performance.now()),
    );
    let answered = false;
    request.on('error', (error: NodeJS.ErrnoException) => {
      const closed = request.reusedSocket && !answered && CLOSED_CONNECTION.has(error.code ?? '');
      finish({ kind: 'error', error: error.code ?? error.message }, closed);
    });
    request.on('response', (response) => {
      answered = true;
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
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size < RESPONSE_SNIPPET_BYTES) return;
        done();
        // The rest of a long body is not read: this connection closes instead of going back to the pool.
        response.destroy();
      });
      // Read to its end, the connection goes back to the pool for the next delivery.
      response.on('end', done);
      response.on('error', done);
    });
    request.end(attempt.body);
  });
}
