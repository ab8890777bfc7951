import type { ErrorRequestHandler, Response } from 'express';
import { databaseUnavailableError } from '@hc/db';
import { ApiError } from '@hc/errors';
import type { Logger } from '@hc/logging';
import type { Mode } from '../../domain/dashboard-user.ts';
import type { SessionLocals } from './session.ts';

/** The main areas, in the order the navigation shows them. */
export const AREAS = [
  { id: 'overview', label: 'Overview' },
  { id: 'payments', label: 'Payments' },
  { id: 'links', label: 'Links and checkouts' },
  { id: 'customers', label: 'Customers' },
  { id: 'developers', label: 'Developers' },
  { id: 'settings', label: 'Settings' },
  { id: 'team', label: 'Team' },
  { id: 'audit', label: 'Audit log' },
] as const;
export type AreaId = (typeof AREAS)[number]['id'];

/**
 * Renders a page with what every page's layout needs: the signed-in user, the CSRF token for its
 * forms, the mode and its switch, the area for the navigation, and the one-time notice (flash).
 */
export function renderPage(
  res: Response,
  template: string,
  data: Record<string, unknown> & { title: string; area?: AreaId },
  status = 200,
): void {
  const session = res.locals['session'] as SessionLocals | undefined;
  const mode = res.locals['mode'] as Mode | undefined;
  res.status(status).render(template, {
    user: session && !session.session.secondFactorDue ? { email: session.session.user.email } : null,
    csrfToken: session?.session.csrfToken ?? '',
    flash: session?.session.flash ?? null,
    mode: mode ?? null,
    account: res.locals['account'] ?? null,
    switchModeUrl: mode ? switchModeUrl(res.req.originalUrl, mode) : null,
    areas: AREAS,
    // Security notices (notices-routes.ts) and where their Dismiss form comes back to.
    notices: res.locals['notices'] ?? null,
    here: res.req.originalUrl,
    ...data,
  });
}

/** The same page in the other mode: the area's list (an object of one mode never exists in the other). */
function switchModeUrl(path: string, mode: Mode): string {
  const other = mode === 'test' ? 'live' : 'test';
  const [, , , area] = path.split('?')[0]!.split('/');
  return `/dashboard/${other}/${area && /^[a-z-]+$/.test(area) ? area : 'overview'}`;
}

export function renderProblem(res: Response, status: number, title: string, message: string): void {
  renderPage(res, 'problem.njk', { title, message }, status);
}

/** The same page for an id that does not exist, belongs to another account, or to the other mode. */
export function renderNotFound(res: Response): void {
  renderProblem(res, 404, 'Not found', 'There is nothing at this address in this account and mode.');
}

/** A list's cursor (`starting_after`, `after`) that is not one of this account's objects in this mode. */
export function renderNoSuchPage(res: Response): void {
  renderProblem(res, 400, 'No such page', 'This list has no such page in this account and mode. Start again from its first page.');
}

/** The list call's refusal of a cursor of another account or mode, or of no object at all. */
export function isInvalidCursor(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'invalid_cursor';
}

/** What the request's own parsing refused, by status (body-parser's and the router's errors). */
const REQUEST_PROBLEMS: Readonly<Record<number, readonly [string, string]>> = {
  400: ['Bad request', 'This address or form could not be read. Go back and try again.'],
  413: ['Too large', 'That form was larger than the dashboard accepts. Shorten what you typed and send it again.'],
  415: ['Not accepted', 'That form came in an encoding the dashboard does not read. Go back, reload the page and try again.'],
};

/**
 * A refusal of the request itself, or null: an error with a 4xx `status`, as body-parser (an oversized
 * form, too many fields, an unknown charset) and the router (an undecodable address) raise them. Only
 * the status is used; the page's words are ours.
 */
function requestRefusal(error: unknown): number | null {
  if (!(error instanceof Error) || !('status' in error)) return null;
  const { status } = error as { status: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

/**
 * Errors that reach Express: a service's not_found is the 404 page; its unavailability a 503; any
 * other refusal by a service (4xx: a cursor, a suspended account, a disabled endpoint a route did not
 * expect) its own status with its message; a request the parsers refused (an oversized or unreadable
 * form, a malformed address) its status with a plain page; only the rest is a 500. If even the
 * problem page cannot be rendered, a plain line (never Express's own page, which would show a stack).
 */
export function pageErrors(logger: Logger): ErrorRequestHandler[] {
  const plain: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    logger.error({ err: error, requestId: res.locals['requestId'] as string }, 'dashboard error page failed');
    if (!res.headersSent) res.status(500).type('text/plain').send('Something went wrong on our side.\n');
  };
  return [pageError(logger), plain];
}

function pageError(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    if (res.headersSent) return;
    const requestId = res.locals['requestId'] as string;
    if (error instanceof ApiError && error.code === 'not_found') return renderNotFound(res);
    // A service not answering, or the dashboard's own database briefly away (a failover, docs/adr/0091).
    const unavailable =
      error instanceof ApiError ? error.code === 'service_unavailable' || error.code === 'catching_up' : !!databaseUnavailableError(error);
    if (unavailable)
      return renderProblem(res, 503, 'Try again shortly', 'Part of the platform is not answering right now. Reload the page in a moment.');
    if (isInvalidCursor(error)) return renderNoSuchPage(res);
    if (error instanceof ApiError && error.httpStatus >= 400 && error.httpStatus < 500) {
      logger.warn({ code: error.code, requestId }, 'dashboard request refused by a service');
      return renderProblem(res, error.httpStatus, 'Not done', error.message);
    }
    const refused = requestRefusal(error);
    if (refused !== null) {
      const [title, message] = REQUEST_PROBLEMS[refused] ?? [
        'Request refused',
        'This request could not be accepted. Go back and try again.',
      ];
      return renderProblem(res, refused, title, message);
    }
    logger.error({ err: error, requestId }, 'dashboard page failed');
    renderProblem(res, 500, 'Something went wrong', `Something went wrong on our side. Reference: ${requestId}.`);
  };
}
