import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '@hc/logging';
import { crashPoint } from '@hc/runtime';
import { isMode } from '../../domain/dashboard-user.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { completeAudit, recordAudit } from '../../use-cases/record-audit.ts';
import { renderProblem } from './render.ts';
import type { RequestAction } from './authorize.ts';
import { clientAddress, signedIn } from './session.ts';

/** What a route adds to its audit line: the object when it is not the address's id, before → after. */
export interface AuditDetail {
  readonly target?: string;
  readonly before?: string | null;
  readonly after?: string | null;
}

/** A route's details for its line in the audit log (never a secret). */
export function auditDetail(res: Response, detail: AuditDetail): void {
  res.locals['auditDetail'] = { ...(res.locals['auditDetail'] as AuditDetail | undefined), ...detail };
}

/** The line of the request so far: who, from where, which action, and what authorize found. */
function lineOf(req: Request, res: Response, found: RequestAction) {
  const { user } = signedIn(res).session;
  const mode = found.params['mode'];
  return {
    accountId: user.accountId,
    actorKind: 'user' as const,
    actor: user.email,
    clientAddress: clientAddress(req),
    action: found.action,
    mode: mode && isMode(mode) ? mode : null,
  };
}

const INTENT = 'auditIntent';

/**
 * Every dashboard action goes into the account's audit log (docs/adr/0056, 0060): each request
 * authorize.ts found an action for, but reads of the log itself. Who (the user's email), when, from
 * which address (as the sign-in limits count it, docs/adr/0040), the mode, the object, and for
 * settings before → after. A change allowed to run has its line written before it runs
 * (`auditIntent`); this completes it once the answer is complete: done (2xx, 3xx) or refused (4xx,
 * 5xx, with the status). What changes nothing — a refusal of authorize.ts (a forged post shows as
 * refused), an export — is written in one step when its answer is complete.
 */
export function auditTrail(deps: DashboardDependencies, logger: Logger): RequestHandler {
  return (req, res, next) => {
    res.once('finish', () => {
      const found = res.locals['action'] as RequestAction | undefined;
      if (!found || found.action === 'audit.read') return;
      const detail = (res.locals['auditDetail'] as AuditDetail | undefined) ?? {};
      const line = lineOf(req, res, found);
      const outcome = {
        outcome: res.statusCode < 400 ? ('done' as const) : ('refused' as const),
        status: res.statusCode,
        target: detail.target ?? found.params['id'] ?? null,
        before: detail.before ?? null,
        after: detail.after ?? null,
      };
      const intent = res.locals[INTENT] as string | undefined;
      // Crash tests stop the process here: the change made and answered, its line not yet completed.
      if (intent) crashPoint('dashboard.audit.before-completion');
      const written = intent ? completeAudit(deps, intent, line.accountId, outcome) : recordAudit(deps, { ...line, ...outcome });
      // A completion that fails leaves the line `started`: the action is in the log, its outcome unknown.
      written.catch((error: unknown) => logger.error({ err: error, action: found.action }, 'audit entry not completed'));
    });
    next();
  };
}

/**
 * After authorize.ts let a change through: its line, `started`, before the route runs (docs/adr/0060).
 * If the log cannot be written the change is not made: a 503 page says so, and no service is called.
 */
export function auditIntent(deps: DashboardDependencies, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const found = res.locals['action'] as RequestAction | undefined;
    if (!found || req.method === 'GET' || req.method === 'HEAD') return next();
    recordAudit(deps, {
      ...lineOf(req, res, found),
      target: found.params['id'] ?? null,
      outcome: 'started',
      status: null,
      before: null,
      after: null,
    }).then(
      (id) => {
        res.locals[INTENT] = id;
        next();
      },
      (error: unknown) => {
        logger.error({ err: error, action: found.action }, 'audit log not writable: change refused');
        // Not an action's refusal: nothing to complete and nothing written, so no finish-time line either.
        res.locals['action'] = undefined;
        renderProblem(res, 503, 'Not done', 'The audit log cannot be written right now, so nothing was changed. Try again in a moment.');
      },
    );
  };
}
