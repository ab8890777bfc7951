import type { RequestHandler } from 'express';
import { abilities, may, type Action } from '../../domain/roles.ts';
import { actionOf } from './action-routes.ts';
import { renderProblem } from './render.ts';
import { signedIn } from './session.ts';

/** What authorize found for the request (res.locals.action), for the audit trail. */
export interface RequestAction {
  readonly action: Action;
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Roles enforced on the server (docs/adr/0055), for every signed-in request before any route: a
 * change (any method but GET/HEAD) must be one of ACTION_ROUTES and the user's role must be allowed
 * it; a GET in the list (the audit log, exports) likewise. A refusal is a 403 page that names the
 * role, and the route never runs, so nothing reaches a service. The user's abilities go to the pages
 * (res.locals.can), which leave out the forms the server would refuse.
 */
export const authorize: RequestHandler = (req, res, next) => {
  const { user } = signedIn(res).session;
  res.locals['can'] = abilities(user.role);
  res.locals['role'] = user.role;
  const found = actionOf(req.method, req.path);
  const isChange = req.method !== 'GET' && req.method !== 'HEAD';
  if (!found) {
    if (!isChange) return next();
    return renderProblem(res, 403, 'Not allowed', 'The dashboard does not offer this change.');
  }
  res.locals['action'] = found satisfies RequestAction;
  if (may(user.role, found.action)) return next();
  renderProblem(res, 403, 'Not allowed for your role', `Your role (${user.role}) does not allow this. Ask an owner of the account.`);
};
