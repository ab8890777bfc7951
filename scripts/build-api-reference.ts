// `pnpm generate` in services/pages: the API reference the pages serve at GET /docs, one HTML file
// built from docs/openapi.json by Redocly (`redocly build-docs --inlineBundle`: Redoc and the document
// inside the file, not loaded from Redocly's CDN). Redoc's sidebar still shows Redocly's logo from
// cdn.redoc.ly, with no option to turn it off: the logo's URLs become an inline SVG here, and the icon
// sets' CDN base URLs are emptied, so the page asks nothing of another origin (services/pages/test/api-reference.int.test.ts checks it in Chromium).
//
//   node scripts/build-api-reference.ts OUTPUT
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const output = process.argv[2];
if (!output) throw new Error('usage: node scripts/build-api-reference.ts OUTPUT');

execFileSync(
  `${root}node_modules/.bin/redocly`,
  ['build-docs', `${root}docs/openapi.json`, '--inlineBundle', '--title', 'Hosted Checkout API reference', '--output', output],
  { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
);

const LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const INLINE_LOGO =
  'data:image/svg+xml,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="16"><text x="0" y="12" font-size="12">Redoc</text></svg>');
// The base URLs of Redocly's icon sets, used only by configured sidebar icons (we configure none): emptied,
// so even an icon asked for by mistake is a same-origin 404, never a request to the CDN.
const ICON_SETS = /https:\/\/cdn\.redocly\.com\/icons\/[a-z]+\/[0-9.]+/g;
const html = readFileSync(output, 'utf8').replace(LOGO, INLINE_LOGO).replace(ICON_SETS, '');
// Anything else Redoc would fetch from a CDN must be found and inlined the same way, not shipped.
const remote = html.match(/https:\/\/cdn\.[a-z.]+\/[^\s"'`)]*/g);
if (remote) throw new Error(`the API reference still loads from a CDN: ${[...new Set(remote)].join(', ')}`);
writeFileSync(output, html);
console.log(`wrote ${output}`);
