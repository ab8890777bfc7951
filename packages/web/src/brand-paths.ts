/**
 * Where a shop's brand is served (by the pages, under PUBLIC_BASE_URL; docs/adr/0096), named once for
 * the pages' routes, the dashboard's preview and the mails' absolute links. Both addresses name their
 * content (the logo's sha256, the colour itself), so they never change meaning and are cached for a year.
 */
export const BRAND_ROUTES = {
  /** `:file` is `<sha256>.png` or `<sha256>.webp`. */
  logo: '/pay/brand/logo/:file',
  /** `:file` is `<rrggbb>.css`: the custom properties of that accent colour. */
  accent: '/pay/brand/accent/:file',
} as const;

const EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/webp': 'webp' };

/** The logo's path, or null for a type the brand never keeps. */
export function logoPath(sha256: string, contentType: string): string | null {
  const extension = EXTENSIONS[contentType];
  return extension && /^[0-9a-f]{64}$/.test(sha256) ? `/pay/brand/logo/${sha256}.${extension}` : null;
}

/** The accent stylesheet's path for #rrggbb, or null for anything else. */
export function accentStylePath(accentColour: string): string | null {
  return /^#[0-9a-f]{6}$/.test(accentColour) ? `/pay/brand/accent/${accentColour.slice(1)}.css` : null;
}
