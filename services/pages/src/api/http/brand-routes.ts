import type { Request, Response, Router } from 'express';
import type { PublicCallContext } from '@hc/grpc';
import { BRAND_ROUTES, exactRouter } from '@hc/web';
import type { BrandReader, LogoReader } from '../../adapters/brand-reader.ts';
import type { PageLimits } from './rate-limits.ts';
import { renderNotFound } from './render.ts';

/** Content addressed: the same address is the same bytes for ever. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Readonly<Record<string, string>> = { png: 'image/png', webp: 'image/webp' };

/** What the brand's files answer besides the page headers: cacheable, loadable by mail clients, inert. */
function fileHeaders(res: Response, contentType: string): void {
  res.set({
    'Content-Type': contentType,
    'Cache-Control': IMMUTABLE,
    'X-Content-Type-Options': 'nosniff',
    // Mail clients on other origins (webmail) show the logo in receipts.
    'Cross-Origin-Resource-Policy': 'cross-origin',
    // Opened on its own, the file is a document that can do nothing.
    'Content-Security-Policy': "default-src 'none'; sandbox",
  });
}

/**
 * The shop's brand on the buyer pages (docs/adr/0096), from our own origin so the pages' CSP stays
 * `img-src 'self'` and `style-src 'self'` with no inline style:
 * - `/pay/brand/logo/<sha256>.<png|webp>`: the logo as accounts re-encoded it, its type fixed by accounts
 *   and checked against the name (a PNG is never served as WebP, nothing as anything else);
 * - `/pay/brand/accent/<rrggbb>.css`: the accent's custom properties, made from the name alone.
 */
export function brandRoutes(logos: LogoReader, limits: PageLimits): Router {
  const router = exactRouter();
  const ctx = (res: Response): PublicCallContext => ({ requestId: res.locals['requestId'] as string });

  router.get(BRAND_ROUTES.logo, limits.views, async (req: Request<{ file: string }>, res) => {
    const match = /^([0-9a-f]{64})\.(png|webp)$/.exec(req.params.file);
    const logo = match ? await logos(match[1]!, ctx(res)) : null;
    if (!logo || logo.contentType !== TYPES[match![2]!]) return renderNotFound(res);
    fileHeaders(res, logo.contentType);
    res.send(Buffer.from(logo.image));
  });

  router.get(BRAND_ROUTES.accent, (req: Request<{ file: string }>, res) => {
    const match = /^([0-9a-f]{6})\.css$/.exec(req.params.file);
    if (!match) return renderNotFound(res);
    fileHeaders(res, 'text/css; charset=utf-8');
    // The hover shade is mixed by the browser: no colour arithmetic here. The colour passed WCAG AA
    // against white when accounts kept it; a darker mix only adds contrast.
    res.send(
      `:root{--accent:#${match[1]};--accent-hover:color-mix(in srgb,#${match[1]} 80%,#000);--accent-shadow:color-mix(in srgb,#${match[1]} 45%,#000)}\n`,
    );
  });

  return router;
}

/** Looks up the brand of the page's account and leaves it for the layout (res.locals.brand). */
export async function dressWithBrand(brands: BrandReader, res: Response, accountId: string): Promise<void> {
  res.locals['brand'] = await brands(accountId, { requestId: res.locals['requestId'] as string });
}
