// The layer rules (docs/adr/0023): which folder of a service may import what. Checked by `pnpm lint`
// and by scripts/tests/lint-boundaries.test.ts, which lints a fixture per rule and expects it refused.
import boundaries from 'eslint-plugin-boundaries';

/** Where a service keeps each layer; `service` is captured so two services' code can be told apart. */
const ELEMENTS = [
  // The generated Prisma client: only store/ may import it.
  { type: 'database-client', pattern: 'services/*/src/store/generated', partialMatch: false, capture: ['service'] },
  { type: 'domain', pattern: 'services/*/src/domain', partialMatch: false, capture: ['service'] },
  { type: 'store', pattern: 'services/*/src/store', partialMatch: false, capture: ['service'] },
  { type: 'api', pattern: 'services/*/src/api', partialMatch: false, capture: ['service'] },
  { type: 'http', pattern: 'services/*/src/http', partialMatch: false, capture: ['service'] },
  { type: 'use-cases', pattern: 'services/*/src/use-cases', partialMatch: false, capture: ['service'] },
  { type: 'service', pattern: 'services/*/src', partialMatch: false, capture: ['service'] },
];

/** Modules that do I/O: none of them in domain/. */
const IO_MODULES = [
  'node:net',
  'net',
  'node:http',
  'http',
  'node:https',
  'https',
  'node:http2',
  'http2',
  'node:fs',
  'fs',
  'node:fs/promises',
  'fs/promises',
  'node:dgram',
  'dgram',
  'node:child_process',
  'child_process',
  'pg',
  'prisma',
  '@prisma/*',
  'nats',
  '@nats-io/*',
  '@grpc/*',
  '@hc/grpc',
  '@hc/db',
  '@hc/events',
];
/**
 * Database clients: only store/ speaks to a database. (@hc/db, the shared migration runner, is wired by
 * a service's entry files, and is an I/O module for domain/.)
 */
const DATABASE_CLIENTS = ['pg', 'prisma', '@prisma/*'];

/** `rootPath`: the folder that holds services/ (the repository, or a test's fixture tree). */
export function layerRules(rootPath) {
  return [
    {
      files: ['services/*/src/**/*.ts'],
      plugins: { boundaries },
      settings: { 'boundaries/elements': ELEMENTS, 'boundaries/root-path': rootPath },
      rules: {
        'boundaries/dependencies': [
          'error',
          {
            default: 'allow',
            checkAllOrigins: true,
            policies: [
              {
                from: { element: { type: 'domain' } },
                disallow: { to: { module: { source: IO_MODULES } } },
                message: 'domain/ holds pure rules: no I/O module (network, files, database, NATS, gRPC).',
              },
              {
                from: { element: { type: 'domain' } },
                disallow: { to: { element: { type: ['store', 'api', 'http', 'use-cases'] } } },
                message: 'domain/ imports no other layer: not store/, api/, http/ or use-cases/.',
              },
              {
                from: { element: { type: '!store' } },
                disallow: { to: { module: { source: DATABASE_CLIENTS } } },
                message: 'Only store/ touches a database client.',
              },
              {
                from: { element: { type: '!{store,database-client}' } },
                disallow: { to: { element: { type: 'database-client' } } },
                message: 'Only store/ touches a database client (the generated Prisma client included).',
              },
              {
                from: { element: { type: ['api', 'http'] } },
                disallow: { to: { element: { type: 'store' } } },
                message: 'api/ and http/ reach only use cases, never store/.',
              },
              {
                disallow: { to: { element: { captured: { service: '!{{ from.captured.service }}' } } } },
                message: "A service never imports another service's src: cross-service only through packages/ and @hc/proto.",
              },
            ],
          },
        ],
      },
    },
  ];
}
