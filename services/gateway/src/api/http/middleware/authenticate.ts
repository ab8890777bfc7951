import type { RequestHandler } from 'express';
import { authenticate, type KeyDirectory } from '../../../use-cases/authenticate.ts';
import { locals } from '../locals.ts';

export function requireApiKey(store: KeyDirectory): RequestHandler {
  return async (req, res, next) => {
    locals(res).caller = await authenticate(store, req.get('authorization'));
    next();
  };
}
