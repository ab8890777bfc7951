import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from '@hc/logging';
import { abilities, may, type Action } from '../../domain/roles.ts';
import { frozenBySuspension } from '../../domain/suspension.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { ACTION_ROUTES } from './action-routes.ts';
import { writeIntent } from './audit-trail.ts';
import { renderProblem } from './render.ts';
import { signedIn } from './session.ts';

/** What the route's guard found for the request (res.locals.action), for the audit trail. */
export interface RequestAction {
  readonly action: Action;
  readonly params: Readonly<Record<string, string>>;
}

/** What a guard needs to write a change's audit line, kept in app.locals by app.ts. */
export interface AuditContext {
  readonly deps: DashboardDependencies;
  readonly logger: Logger;
}

const AUDIT_CONTEXT = 'auditContext';

export function setAuditContext(app: Express, context: AuditContext): void {
  app.locals[AUDIT_CONTEXT] = context;
}

const auditContextOf = (req: Request): AuditContext => req.app.locals[AUDIT_CONTEXT] as AuditContext;

/** The methods a page route is registered with; any other is a change the dashboard does not offer. */
export type RouteMethod = 'GET' | 'POST';

/** The line of ACTION_ROUTES for a route as it is registered (its full path pattern), if any. */
export function actionOfRoute(method: RouteMethod, path: string): Action | undefined {
  return ACTION_ROUTES.find((route) => route.method === method && route.path === path)?.action;
}

/**
 * The user's abilities for the pages (res.locals.can), which leave out the forms the server would
 * refuse. The refusal itself is the route's own guard (routeGuard).
 */
export const pageAbilities: RequestHandler = (_req, res, next) => {
  const { user } = signedIn(res).session;
  res.locals['can'] = abilities(user.role);
  res.locals['role'] = user.role;
  next();
};

/**
 * Roles enforced on the route itself (docs/adr/0055): the first handler of every signed-in route,
 * put there by routers.ts when the route is registered, so the address the role is checked for is the
 * very address Express routed — one matcher, with the same letter case and trailing-slash rules.
 * Closed by default: a change (POST) whose path has no line in ACTION_ROUTES cannot be registered
 * (the dashboard does not start), and one in the list runs only for the roles the table allows; a GET
 * in the list (the audit log, exports) likewise; any other GET is a page every role reads. A refusal
 * is a 403 page that names the role, and the route never runs, as for a change a suspended account
 * may not make (src/domain/suspension.ts), so nothing reaches a service. A change
 * allowed to run has its audit line written, `started`, before it runs (docs/adr/0060).
 */
export function routeGuard(method: RouteMethod, path: string): RequestHandler {
  const action = actionOfRoute(method, path);
  if (method !== 'GET' && action === undefined) {
    throw new Error(`${method} ${path} has no line in ACTION_ROUTES: a change without a role is nobody's (docs/adr/0055)`);
  }
  return (req: Request, res: Response, next: NextFunction) => {
    if (action === undefined) return next();
    const { user } = signedIn(res).session;
    const params = Object.fromEntries(
      Object.entries(req.params).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    res.locals['action'] = { action, params } satisfies RequestAction;
    if (!may(user.role, action)) {
      return renderProblem(
        res,
        403,
        'Not allowed for your role',
        `Your role (${user.role}) does not allow this. Ask an owner of the account.`,
      );
    }
    // A suspended account changes nothing that widens what it can do (src/domain/suspension.ts). Every
    // frozen action is a page of a mode, whose account modeFromPath has read; none read means refused.
    const account = res.locals['account'] as { status?: string } | undefined;
    if (frozenBySuspension(action, account?.status)) {
      return renderProblem(
        res,
        403,
        'Not done: the account is suspended',
        'This account is suspended, so this change cannot be made. Reading, exports and what only takes access away (revoking a key, disabling an endpoint, removing a user) stay possible. Contact support.',
      );
    }
    if (method === 'GET') return next();
    const { deps, logger } = auditContextOf(req);
    writeIntent(req, res, deps, logger).then((written) => written && next(), next);
  };
}

/**
 * After every route: a change no route took (another method, an address the dashboard does not have)
 * is refused for everyone, never answered as a page.
 */
export const refuseUnknownChange: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  renderProblem(res, 403, 'Not allowed', 'The dashboard does not offer this change.');
};
