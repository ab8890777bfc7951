import type { Request, Response, Router } from 'express';
import type { Brand } from '@hc/proto/accounts/v1';
import { logoPath } from '@hc/web';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { auditDetail } from './audit-trail.ts';
import { redirectWithFlash } from './auth-routes.ts';
import type { UploadProblem } from './brand-upload.ts';
import { formRefusal, formValues } from './forms.ts';
import { modeOf } from './mode.ts';
import { modePath } from './paths.ts';
import { renderPage } from './render.ts';
import { signedInRouter } from './routers.ts';
import { callContext } from './session.ts';

interface BrandProblem {
  readonly message: string;
  readonly field: 'accent_colour' | 'logo';
  readonly typed: string;
}

/** The brand as an audit line keeps it: the colour and the logo's short hash, never the image. */
function brandSummary(brand: Brand | undefined): string {
  const logo = brand?.logoSha256 ? `logo ${brand.logoSha256.slice(0, 12)}` : 'no logo';
  return `accent ${brand?.accentColour ?? 'platform'}; ${logo}`;
}

function renderBrand(res: Response, brand: Brand | undefined, problem: BrandProblem | null, status = 200): void {
  renderPage(
    res,
    'brand.njk',
    {
      title: problem ? 'Error: Brand' : 'Brand',
      area: 'settings',
      brand: brand ?? {},
      logoUrl: brand?.logoSha256 && brand.logoType ? logoPath(brand.logoSha256, brand.logoType) : null,
      problem: problem?.message ?? null,
      problemField: problem?.field ?? null,
      typed: problem?.typed ?? null,
    },
    status,
  );
}

/** The uploaded file, when the form carried one with bytes (an empty file input sends a 0-byte part). */
function uploadedLogo(req: Request): Uint8Array | undefined {
  return req.file && req.file.size > 0 ? req.file.buffer : undefined;
}

/**
 * /dashboard/{mode}/settings/brand (docs/adr/0096): the shop's logo and accent colour on every buyer
 * page and mail, for both modes. The form is multipart (brand-upload.ts reads it); accounts checks the
 * colour against WCAG AA and the logo by its bytes and re-encodes it, and its refusal is shown on the
 * form. Owners and admins only (`brand.change`), audited before → after like every setting.
 */
export function brandRoutes(platform: PlatformClients, deps: DashboardDependencies): Router {
  const router = signedInRouter('/dashboard/:mode');

  router.get('/settings/brand', async (_req, res) => {
    const { brand } = await platform.admin.getBrand({}, callContext(res, modeOf(res)));
    renderBrand(res, brand, null);
  });

  router.post('/settings/brand', async (req, res) => {
    const mode = modeOf(res);
    const form = formValues(req, ['accent_colour', 'remove_logo']);
    const typed = form['accent_colour']!.trim();
    const { brand: before } = await platform.admin.getBrand({}, callContext(res, mode));
    auditDetail(res, { before: brandSummary(before) });
    const upload = res.locals['uploadProblem'] as UploadProblem | undefined;
    if (upload) return renderBrand(res, before, { message: upload.message, field: 'logo', typed }, upload.status);
    let after: Brand | undefined;
    try {
      const request = { accentColour: typed, logo: uploadedLogo(req), removeLogo: form['remove_logo'] === 'yes' };
      ({ brand: after } = await platform.admin.setBrand(request, callContext(res, mode)));
    } catch (error) {
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      const field = refusal.field === 'logo' ? 'logo' : 'accent_colour';
      return renderBrand(res, before, { message: refusal.message, field, typed }, refusal.httpStatus);
    }
    auditDetail(res, { after: brandSummary(after) });
    await redirectWithFlash(
      deps,
      res,
      modePath(mode, 'settings', 'brand'),
      'Brand saved: buyers see it on their next page and in their next mail.',
    );
  });

  return router;
}
