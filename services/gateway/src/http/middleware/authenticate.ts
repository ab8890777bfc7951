import type { RequestHandler } from 'express';
import type { MerchantStore } from '../../store/merchant-store.ts';
import { authenticate } from '../../use-cases/authenticate.ts';
import { locals } from '../locals.ts';

export function requireApiKey(store: MerchantStore): RequestHandler {
  return async (req, res, next) => {
    locals(res).caller = await authenticate(store, req.get('authorization'));
    next();
  };
}
