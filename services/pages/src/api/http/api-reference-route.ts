import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router } from 'express';
import { paths } from '../../paths.ts';
import { renderProblemText } from './render.ts';

/**
 * GET /docs: the API reference merchants read, one static HTML file that `pnpm generate` builds from
 * docs/openapi.json (redocly build-docs --inlineBundle: Redoc and the document inside the file, no
 * CDN). It is a file, not a proxy: nothing here reaches /v1 or any service.
 *
 * Its own Content-Security-Policy, as strict as the pages' in what matters: scripts only the file's
 * own inline scripts, each allowed by its SHA-256 (computed from the file as built, so a rebuilt file
 * is allowed and an injected script is not); nothing fetched from another origin, no framing, no
 * forms. Redoc (styled-components) writes its styles at run time, which no hash can name: styles
 * alone allow 'unsafe-inline', and only from this origin.
 */
export const API_REFERENCE_FILE = join(import.meta.dirname, '..', '..', '..', 'gen', 'api-reference.html');

export interface ApiReference {
  readonly html: string;
  readonly policy: string;
}

/** The inline scripts' hashes, each as a CSP source: the text between <script …> and the first </script. */
export function scriptHashes(html: string): string[] {
  const sources = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script/gi)) {
    sources.add(`'sha256-${createHash('sha256').update(match[1]!, 'utf8').digest('base64')}'`);
  }
  return [...sources];
}

export function loadApiReference(file = API_REFERENCE_FILE): ApiReference {
  const html = readFileSync(file, 'utf8');
  const policy = [
    "default-src 'none'",
    `script-src ${scriptHashes(html).join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    'worker-src blob:',
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return { html, policy };
}

export function apiReferenceRoutes(): Router {
  const router = Router();
  let reference: ApiReference | undefined;
  router.get(paths.docs, (_req, res) => {
    try {
      reference ??= loadApiReference();
    } catch {
      // Not built (a checkout without `pnpm generate`): say so rather than a bare 404.
      return renderProblemText(res, 503, 'API reference not built', 'The API reference is built by pnpm generate.');
    }
    res.set('Content-Security-Policy', reference.policy);
    res.set('Cache-Control', 'public, max-age=300');
    res.type('html').send(reference.html);
  });
  return router;
}
