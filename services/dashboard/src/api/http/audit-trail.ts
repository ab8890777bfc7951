import type { RequestHandler, Response } from 'express';
import type { Logger } from '@hc/logging';
import { isMode } from '../../domain/dashboard-user.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { recordAudit } from '../../use-cases/record-audit.ts';
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

/**
 * Every dashboard action goes into the account's audit log (docs/adr/0056): each request authorize.ts
 * found an action for, but reads of the log itself, is written when its answer is complete — done
 * (2xx, 3xx) or refused (4xx, 5xx, with the status), the refusals of authorize.ts included, so a
 * forged post shows as refused. Who (the user's email), when, from which address (as the sign-in
 * limits count it, docs/adr/0040), the mode, the object, and for settings before → after.
 */
export function auditTrail(deps: DashboardDependencies, logger: Logger): RequestHandler {
  return (req, res, next) => {
    res.once('finish', () => {
      const found = res.locals['action'] as RequestAction | undefined;
      if (!found || found.action === 'audit.read') return;
      const { user } = signedIn(res).session;
      const detail = (res.locals['auditDetail'] as AuditDetail | undefined) ?? {};
      const mode = found.params['mode'];
      recordAudit(deps, {
        accountId: user.accountId,
        actorKind: 'user',
        actor: user.email,
        clientAddress: clientAddress(req),
        action: found.action,
        mode: mode && isMode(mode) ? mode : null,
        target: detail.target ?? found.params['id'] ?? null,
        outcome: res.statusCode < 400 ? 'done' : 'refused',
        status: res.statusCode,
        before: detail.before ?? null,
        after: detail.after ?? null,
      }).catch((error: unknown) => logger.error({ err: error, action: found.action }, 'audit entry not written'));
    });
    next();
  };
}
