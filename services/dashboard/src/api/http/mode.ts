import type { RequestHandler } from 'express';
import { isMode, type Mode } from '../../domain/dashboard-user.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { renderNotFound } from './render.ts';
import { callContext } from './session.ts';

/**
 * The mode in the URL (/dashboard/test/…, /dashboard/live/…): checked, kept in res.locals.mode for the
 * pages, and the account (name, status, wallet) read once for the header. The segment must be spelt
 * exactly `test` or `live`: `%74est` decodes to the mode too, but an address has one spelling
 * (docs/security.md 47.2).
 */
export function modeFromPath(platform: PlatformClients): RequestHandler {
  return async (req, res, next) => {
    const mode = req.params['mode'];
    if (typeof mode !== 'string' || !isMode(mode) || req.baseUrl !== `/dashboard/${mode}`) return renderNotFound(res);
    res.locals['mode'] = mode;
    const { account } = await platform.admin.getAccount({}, callContext(res, mode));
    res.locals['account'] = account;
    next();
  };
}

/** The mode of a page behind modeFromPath. */
export function modeOf(res: Parameters<RequestHandler>[1]): Mode {
  return res.locals['mode'] as Mode;
}
