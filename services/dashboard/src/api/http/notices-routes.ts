import type { Router } from 'express';
import { affectedText, noticeText } from '../../domain/security-notice.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { dismissNotice } from '../../use-cases/dismiss-notice.ts';
import { listNotices } from '../../use-cases/list-notices.ts';
import { dashboardPaths, modePath, safeNext } from './paths.ts';
import { signedIn } from './session.ts';
import { signedInRouter } from './routers.ts';

/** What the layout shows of a notice: its sentence, the payments it names, and its id for the Dismiss form. */
export interface NoticeView {
  readonly id: string;
  readonly text: string;
  /** The sentence about the started, unpaid payments at the change, or null (docs/adr/0081). */
  readonly affected: string | null;
  readonly payments: readonly { readonly id: string; readonly href: string }[];
}

/**
 * Security notices (docs/adr/0038): every page a signed-in user opens shows the account's notices this
 * user has not dismissed, as a banner at the top; Dismiss (a form, so it works without script) hides
 * one for this user only and comes back to the page it was on.
 */
export function noticesRoutes(deps: DashboardDependencies): Router {
  const router = signedInRouter('');

  router.use(async (req, res, next) => {
    if (req.method === 'GET') {
      const notices = await listNotices(deps, signedIn(res).session.user);
      res.locals['notices'] = notices.map((notice): NoticeView => ({
        id: notice.id,
        text: noticeText(notice),
        affected: affectedText(notice),
        payments: notice.affectedPaymentIds.map((id) => ({ id, href: modePath('live', 'payments', id) })),
      }));
    }
    next();
  });

  router.post(`${dashboardPaths.notices}/:id/dismiss`, async (req, res) => {
    await dismissNotice(deps, signedIn(res).session.user, String(req.params['id']));
    const back = (req.body as Record<string, unknown> | undefined)?.['back'];
    res.redirect(303, safeNext(back));
  });

  return router;
}
