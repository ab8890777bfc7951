/**
 * The load's POSTs, each on a connection of its own (node:http, no keep-alive). fetch keeps connections
 * alive, and a request sent on one the server's keep-alive timer is closing fails with no answer: on a
 * loaded machine (a stalled test process, its idle timer late) that is a client's race, not the
 * platform failing to answer, and it would count as a hang. A fresh connection has no such race, so
 * "no answer" here means the platform (or its front router) did not answer.
 */
import { request } from 'node:http';

export interface LoadAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** Thrown when no answer came; `code` says why (ECONNRESET, ECONNREFUSED, timeout…). */
export class NoAnswer extends Error {
  readonly code: string;
  constructor(code: string) {
    super(`no answer: ${code}`);
    this.code = code;
  }
}

export function postJson(url: string, headers: Record<string, string>, body: unknown, timeoutMs: number): Promise<LoadAnswer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: 'POST',
      agent: false,
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) },
      timeout: timeoutMs,
    });
    outgoing.on('timeout', () => outgoing.destroy(new NoAnswer(`timeout after ${timeoutMs} ms`)));
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      reject(error instanceof NoAnswer ? error : new NoAnswer(error.code ?? error.message)),
    );
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error: NodeJS.ErrnoException) => reject(new NoAnswer(error.code ?? error.message)));
      response.on('end', () => {
        let parsed: Record<string, unknown> = {};
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        } catch {
          // Not JSON (a proxy's plain page): the status alone tells.
        }
        resolve({ status: response.statusCode ?? 0, body: parsed });
      });
    });
    outgoing.end(payload);
  });
}
