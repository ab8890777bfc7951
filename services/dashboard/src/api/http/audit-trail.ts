import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '@hc/logging';
import { crashPoint } from '@hc/runtime';
import { idShaped, recordableTarget } from '../../domain/audit.ts';
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

/** The line of the request so far: who, from where, which action, and what the route's guard found. */
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

/**
 * The object of the request as its address names it, only when it has the shape of an id: whatever
 * else someone put in the address (a formula, a sentence) is not written to the log (docs/security.md 47.3).
 */
const targetOf = (found: RequestAction): string | null => {
  const id = found.params['id'];
  return id !== undefined && idShaped(id) ? id : null;
};

const INTENT = 'auditIntent';
const RUNNING = 'auditActionRunning';

/**
 * An action under way: settles when the route's handler has returned or thrown (routers.ts), with
 * whether it threw. Its line is completed only then, also when the browser went away first, so a
 * completion never runs ahead of the change it describes.
 */
interface RunningAction {
  readonly settled: Promise<boolean>;
  readonly settle: (threw: boolean) => void;
}

/** Marks the start of a route's action (the guard, before its audit intent). */
export function actionStarts(res: Response): void {
  let settle: (threw: boolean) => void = () => undefined;
  const settled = new Promise<boolean>((resolve) => (settle = resolve));
  res.locals[RUNNING] = { settled, settle } satisfies RunningAction;
}

/** Marks the end of a route's action: returned, or thrown (the error page follows). */
export function actionEnds(res: Response, threw: boolean): void {
  (res.locals[RUNNING] as RunningAction | undefined)?.settle(threw);
}

/**
 * Every dashboard action goes into the account's audit log (docs/adr/0056, 0060): each request a
 * route's guard found an action for, but reads of the log itself. Who (the user's email), when, from
 * which address (as the sign-in limits count it, docs/adr/0040), the mode, the object, and for
 * settings before → after. A change allowed to run has its line written before it runs
 * (`writeIntent`); this completes it once the answer is complete or the connection closed, and the
 * route's handler has settled: done (2xx, 3xx) or refused (4xx, 5xx, with the status; a handler that
 * threw is refused with 500). A started line is always completed, whatever happened in between,
 * unless the process dies. What changes nothing — a refusal by the guard (a forged post shows as
 * refused), an export — is written in one step when its answer is complete.
 */
export function auditTrail(deps: DashboardDependencies, logger: Logger): RequestHandler {
  return (req, res, next) => {
    let ended = false;
    const onEnd = () => {
      if (ended) return;
      ended = true;
      const running = res.locals[RUNNING] as RunningAction | undefined;
      void (running?.settled ?? Promise.resolve(false)).then((threw) => complete(threw));
    };
    const complete = (threw: boolean) => {
      const found = res.locals['action'] as RequestAction | undefined;
      if (!found || found.action === 'audit.read') return;
      const detail = (res.locals['auditDetail'] as AuditDetail | undefined) ?? {};
      const line = lineOf(req, res, found);
      const status = threw && res.statusCode < 400 ? 500 : res.statusCode;
      const outcome = {
        outcome: status < 400 ? ('done' as const) : ('refused' as const),
        status,
        target: detail.target === undefined ? targetOf(found) : recordableTarget(detail.target) ? detail.target : null,
        before: detail.before ?? null,
        after: detail.after ?? null,
      };
      const intent = res.locals[INTENT] as string | undefined;
      // Crash tests stop the process here: the change made and answered, its line not yet completed.
      if (intent) crashPoint('dashboard.audit.before-completion');
      const written = intent ? completeAudit(deps, intent, line.accountId, outcome) : recordAudit(deps, { ...line, ...outcome });
      // A completion that fails leaves the line `started`: the action is in the log, its outcome unknown.
      written.catch((error: unknown) => logger.error({ err: error, action: found.action }, 'audit entry not completed'));
    };
    res.once('finish', onEnd);
    res.once('close', onEnd);
    next();
  };
}

/**
 * A change the guard let through: its line, `started`, before the route runs (docs/adr/0060). If the
 * log cannot be written the change is not made: a 503 page says so, no service is called, and the
 * answer is false.
 */
export async function writeIntent(req: Request, res: Response, deps: DashboardDependencies, logger: Logger): Promise<boolean> {
  const found = res.locals['action'] as RequestAction;
  actionStarts(res);
  try {
    res.locals[INTENT] = await recordAudit(deps, {
      ...lineOf(req, res, found),
      target: targetOf(found),
      outcome: 'started',
      status: null,
      before: null,
      after: null,
    });
    return true;
  } catch (error: unknown) {
    logger.error({ err: error, action: found.action }, 'audit log not writable: change refused');
    // Not an action's refusal: nothing to complete and nothing written, so no finish-time line either.
    res.locals['action'] = undefined;
    actionEnds(res, false);
    renderProblem(res, 503, 'Not done', 'The audit log cannot be written right now, so nothing was changed. Try again in a moment.');
    return false;
  }
}
