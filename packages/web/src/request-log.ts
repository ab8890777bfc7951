import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
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
 * One access-log line per request with its method, path, status and request id — nothing else: a
 * page's query can carry a one-time token or a searched email, and its body a buyer's details.
 */
export function accessLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    customProps: (_req, res) => ({ requestId: requestIdOf(res as Response) }),
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
  });
}
