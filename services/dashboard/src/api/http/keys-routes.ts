import type { Router } from 'express';
import type { ApiKey } from '@hc/proto/accounts/v1';
import { formatTime } from '../../domain/format.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { redirectWithFlash } from './auth-routes.ts';
import { formRefusal, formValues } from './forms.ts';
import { modeOf } from './mode.ts';
import { modePath } from './paths.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { renderPage } from './render.ts';
import { callContext } from './session.ts';
import { signedInRouter } from './routers.ts';

export function keyView(key: ApiKey) {
  return {
    id: key.id,
    hint: key.hint,
    label: key.label ?? null,
    created: formatTime(key.created ? new Date(key.created) : null),
    revoked: key.revoked ? formatTime(new Date(key.revoked)) : null,
  };
}

/**
 * API keys under Developers (the accounts context's merchant admin service, docs/adr/0028, 0085): made, listed by hint
 * and revoked in the URL's mode. A new key's secret is in the answer to the create and nowhere else:
 * that page is rendered directly (no redirect, no flash, never stored; every page is no-store).
 */
export function keysRoutes(platform: PlatformClients, deps: DashboardDependencies): Router {
  const router = signedInRouter('/dashboard/:mode');

  router.post('/developers/keys', async (req, res) => {
    const mode = modeOf(res);
    const label = formValues(req, ['label'])['label']!.trim().slice(0, 120);
    let created: Awaited<ReturnType<PlatformClients['admin']['createApiKey']>>;
    try {
      created = await platform.admin.createApiKey({ label: label || undefined }, callContext(res, mode));
    } catch (error) {
      // A suspended account gets no new key (403 suspended, ADR 0037): said on the Developers page.
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return redirectWithFlash(deps, res, modePath(mode, 'developers'), refusal.message);
    }
    const { key, secret } = created;
    renderPage(res, 'developers-key-created.njk', { title: 'API key created', area: 'developers', key: keyView(key!), secret });
  });

  router.get('/developers/keys/:id/revoke', async (req, res) => {
    const mode = modeOf(res);
    const { keys } = await platform.admin.listApiKeys({}, callContext(res, mode));
    const key = keys.find((k) => k.id === req.params['id'] && !k.revoked);
    if (!key) return redirectWithFlash(deps, res, modePath(mode, 'developers'), 'That key is not one of this mode’s active keys.');
    renderPage(res, 'developers-key-revoke.njk', { title: 'Revoke API key', area: 'developers', key: keyView(key) });
  });

  router.post('/developers/keys/:id/revoke', async (req, res) => {
    const mode = modeOf(res);
    const { key } = await platform.admin.revokeApiKey({ id: String(req.params['id']) }, callContext(res, mode));
    await redirectWithFlash(deps, res, modePath(mode, 'developers'), `Key ${key?.hint ?? ''} revoked: its very next request is refused.`);
  });

  return router;
}
