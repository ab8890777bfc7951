import type { RequestHandler } from 'express';
import type { KeyLookup } from '../../store/key-cache.ts';
import { authenticate } from '../../use-cases/authenticate.ts';
import { locals } from '../locals.ts';

export function requireApiKey(store: KeyLookup): RequestHandler {
  return async (req, res, next) => {
    locals(res).caller = await authenticate(store, req.get('authorization'));
    next();
  };
}
