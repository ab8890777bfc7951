import type { ErrorRequestHandler, Response } from 'express';
import { ApiError } from '@hc/errors';
import type { Logger } from '@hc/logging';
import type { Mode } from '../domain/dashboard-user.ts';
import type { SessionLocals } from './session.ts';

/** The main areas, in the order the navigation shows them. */
export const AREAS = [
  { id: 'payments', label: 'Payments' },
  { id: 'links', label: 'Links and checkouts' },
  { id: 'customers', label: 'Customers' },
  { id: 'developers', label: 'Developers' },
  { id: 'settings', label: 'Settings' },
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
    ...data,
  });
}

/** The same page in the other mode: the area's list (an object of one mode never exists in the other). */
function switchModeUrl(path: string, mode: Mode): string {
  const other = mode === 'test' ? 'live' : 'test';
  const [, , , area] = path.split('?')[0]!.split('/');
  return `/dashboard/${other}/${area && /^[a-z-]+$/.test(area) ? area : 'payments'}`;
}

export function renderProblem(res: Response, status: number, title: string, message: string): void {
  renderPage(res, 'problem.njk', { title, message }, status);
}

/** The same page for an id that does not exist, belongs to another account, or to the other mode. */
export function renderNotFound(res: Response): void {
  renderProblem(res, 404, 'Not found', 'There is nothing at this address in this account and mode.');
}

/**
 * Errors that reach Express: a service's not_found is the 404 page; its unavailability a 503; the
 * rest 500. If even the problem page cannot be rendered, a plain line (never Express's own page,
 * which would show a stack).
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
    if (error instanceof ApiError && error.code === 'not_found') return renderNotFound(res);
    if (error instanceof ApiError && (error.code === 'service_unavailable' || error.code === 'catching_up'))
      return renderProblem(res, 503, 'Try again shortly', 'Part of the platform is not answering right now. Reload the page in a moment.');
    const status = (error as { status?: unknown } | null)?.status;
    if (!(error instanceof ApiError) && typeof status === 'number' && status >= 400 && status < 500)
      // The form body itself was refused (not UTF-8, too large, too many fields): the sender's fault, not a 500.
      return renderProblem(res, status, 'The form could not be read', 'Go back, reload the page and try again.');
    logger.error({ err: error, requestId: res.locals['requestId'] as string }, 'dashboard page failed');
    renderProblem(res, 500, 'Something went wrong', `Something went wrong on our side. Reference: ${res.locals['requestId'] as string}.`);
  };
}
