import type { RequestHandler, Response } from 'express';
import { idempotencyKey } from '../../../domain/idempotency.ts';

/**
 * Reads the Idempotency-Key of a /v1 create (every create takes one). Checked before the body: a bad
 * key is refused whatever the body says.
 */
export const readIdempotencyKey: RequestHandler = (req, res, next) => {
  res.locals['idempotencyKey'] = idempotencyKey(req.get('idempotency-key'));
  next();
};

/** The key readIdempotencyKey read; undefined when the request sent none. */
export const sentIdempotencyKey = (res: Response): string | undefined => res.locals['idempotencyKey'] as string | undefined;
