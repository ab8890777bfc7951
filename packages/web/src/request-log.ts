import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import type { Logger } from '@hc/logging';

/** A request id for every answer (errors included): in `X-Request-Id` and on the access-log line. */
export const assignRequestId: RequestHandler = (_req, res, next) => {
  res.locals['requestId'] = randomUUID();
  res.set('X-Request-Id', res.locals['requestId'] as string);
  next();
};

export function requestIdOf(res: Response): string {
  return res.locals['requestId'] as string;
}

/**
 * One access-log line per request with its method, path, status, request id and duration — nothing
 * else: a page's query can carry a one-time token or a searched email, its body a buyer's details, and
 * the API's headers a secret key. Logged when the answer is sent (`request completed`; `error` level
 * for a 5xx) or when the client went away first (`request aborted`, warn).
 *
 * Written here rather than with pino-http, whose per-request child loggers (each serialised through
 * the redaction rules) cost about 8 % of the gateway's CPU on a read (docs/performance.md). The line
 * is built from the five fields above and nothing else, so it goes through a child logger without the
 * redaction rules: there is nothing in it they could match.
 */
export function accessLog(logger: Logger): RequestHandler {
  const track = accessLogger(logger);
  return (req, res, next) => {
    track(res, req.method, req.originalUrl.split('?', 1)[0]!, () => requestIdOf(res));
    next();
  };
}

/** Called when the request arrives; the line is written when the answer is sent or the client goes away. */
function accessLogger(logger: Logger): (res: ServerResponse, method: string | undefined, path: string, requestId: () => string) => void {
  const lines = logger.child({}, { redact: { paths: [] } });
  return (res, method, path, requestId) => {
    const started = performance.now();
    const done = (): void => {
      res.off('finish', done);
      res.off('close', done);
      const line = {
        requestId: requestId(),
        req: { method, path },
        res: { status: res.statusCode },
        responseTime: Math.round(performance.now() - started),
      };
      if (!res.writableFinished) lines.warn(line, 'request aborted');
      else if (res.statusCode >= 500) lines.error(line, 'request errored');
      else lines.info(line, 'request completed');
    };
    res.on('finish', done);
    res.on('close', done);
  };
}
