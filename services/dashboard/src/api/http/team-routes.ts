import { type Router, type Response } from 'express';
import { ApiError } from '@hc/errors';
import { invitationMailer } from '../../adapters/invitation-mailer.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { formatTime } from '../../domain/format.ts';
import { isRole, ROLES, type Role } from '../../domain/roles.ts';
import type { TeamMember } from '../../domain/team-member.ts';
import { changeRole, inviteTeammate, listTeam, removeTeammate, teammate } from '../../use-cases/change-team.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { redirectWithFlash } from './auth-routes.ts';
import { auditDetail } from './audit-trail.ts';
import { formRefusal, formValues } from './forms.ts';
import { modeOf } from './mode.ts';
import { modePath } from './paths.ts';
import { renderPage } from './render.ts';
import { callContext, signedIn } from './session.ts';
import { signedInRouter } from './routers.ts';

const ROLE_WORDS: Readonly<Record<Role, string>> = {
  owner: 'Owner — everything, including the team',
  admin: 'Admin — everything but the team',
  developer: 'Developer — API keys, webhook endpoints and events; reads the rest',
  viewer: 'Viewer — reads and exports only',
};

const memberView = (member: TeamMember, me: string) => ({
  ...member,
  created: formatTime(member.createdAt),
  me: member.id === me,
  status: member.passwordSet
    ? member.twoFactor
      ? 'Active, two-factor on'
      : 'Active'
    : member.invitationOpen
      ? 'Invited (link not used yet)'
      : 'Invitation expired',
});

async function renderTeam(
  deps: DashboardDependencies,
  res: Response,
  problem: { message: string; email: string; role: string } | null,
  status = 200,
) {
  const { user } = signedIn(res).session;
  const members = await listTeam(deps, user.accountId);
  renderPage(
    res,
    'team.njk',
    {
      title: problem ? 'Error: Team' : 'Team',
      area: 'team',
      members: members.map((m) => memberView(m, user.id)),
      roles: ROLES.map((id) => ({ id, words: ROLE_WORDS[id] })),
      problem: problem?.message ?? null,
      email: problem?.email ?? '',
      invitedRole: problem?.role ?? 'viewer',
    },
    status,
  );
}

/**
 * /dashboard/{mode}/team: the account's users and their roles (docs/adr/0055). Every role sees the
 * list; only an owner invites (by email through the notifications context, docs/adr/0059), changes
 * roles and removes (authorize.ts refuses the rest). The team
 * belongs to the account, not the mode: both modes show the same.
 */
export function teamRoutes(platform: PlatformClients, deps: DashboardDependencies): Router {
  const router = signedInRouter('/dashboard/:mode');

  router.get('/team', async (_req, res) => {
    await renderTeam(deps, res, null);
  });

  router.post('/team/invite', async (req, res) => {
    const form = formValues(req, ['email', 'role']);
    const role = form['role']!;
    auditDetail(res, { target: form['email']!.trim().toLowerCase().slice(0, 200), after: role });
    if (!isRole(role)) return renderTeam(deps, res, { message: 'Choose one of the roles.', email: form['email']!, role: 'viewer' }, 400);
    const { user } = signedIn(res).session;
    const mailer = invitationMailer(platform.notifications, callContext(res, modeOf(res)));
    let invited;
    try {
      invited = await inviteTeammate(deps, mailer, user.accountId, { email: form['email']!, role, invitedBy: user.email });
    } catch (error) {
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      const message = refusal.code === 'email_taken' ? 'That email is already on this team (see the list above).' : refusal.message;
      return renderTeam(deps, res, { message, email: form['email']!, role }, refusal.httpStatus);
    }
    auditDetail(res, { target: invited.user.email, after: `${role} (${invited.emailed ? 'emailed' : 'mail not sent: link shown once'})` });
    // A link is in this answer only when the mail could not take it: rendered, never stored, flashed or
    // logged (every page is no-store).
    renderPage(res, 'team-invited.njk', {
      title: invited.emailed ? 'Invitation emailed' : 'Invitation made, email not sent',
      area: 'team',
      invited: { email: invited.user.email, role: invited.user.role },
      emailed: invited.emailed,
      link: invited.emailed ? null : invited.link,
      expires: formatTime(invited.expiresAt),
    });
  });

  router.post('/team/:id/role', async (req, res) => {
    const mode = modeOf(res);
    const role = formValues(req, ['role'])['role']!;
    const accountId = signedIn(res).session.user.accountId;
    if (!isRole(role)) return renderTeam(deps, res, { message: 'Choose one of the roles.', email: '', role: 'viewer' }, 400);
    let before: TeamMember;
    try {
      before = await changeRole(deps, accountId, String(req.params['id']), role);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code === 'not_found') throw error;
      return renderTeam(deps, res, { message: error.message, email: '', role: 'viewer' }, 409);
    }
    auditDetail(res, { target: before.email, before: before.role, after: role });
    await redirectWithFlash(deps, res, modePath(mode, 'team'), `${before.email} is now ${role}.`);
  });

  router.get('/team/:id/remove', async (req, res) => {
    const member = await teammate(deps, signedIn(res).session.user.accountId, String(req.params['id']));
    if (!member) throw new ApiError('not_found');
    renderPage(res, 'team-remove.njk', { title: 'Remove user', area: 'team', member: memberView(member, signedIn(res).session.user.id) });
  });

  router.post('/team/:id/remove', async (req, res) => {
    const mode = modeOf(res);
    const { user } = signedIn(res).session;
    let removed: TeamMember;
    try {
      removed = await removeTeammate(deps, user.accountId, String(req.params['id']));
    } catch (error) {
      if (!(error instanceof ApiError) || error.code === 'not_found') throw error;
      return renderTeam(deps, res, { message: error.message, email: '', role: 'viewer' }, 409);
    }
    auditDetail(res, { target: removed.email, before: removed.role, after: null });
    // Removing yourself ends this session too: the next page is the sign-in page.
    if (removed.id === user.id) return res.redirect(303, '/dashboard/sign-in');
    await redirectWithFlash(deps, res, modePath(mode, 'team'), `${removed.email} removed: their sessions have ended.`);
  });

  return router;
}
