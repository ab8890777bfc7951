// The layer rules (docs/adr/0023): which folder of a service may import what. Checked by `pnpm lint`
// and by scripts/tests/lint-boundaries.test.ts, which lints a fixture per rule and expects it refused.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import boundaries from 'eslint-plugin-boundaries';

/**
 * The six folder roles of a service's src/ (docs/adr/0023, issue 31), plus the composition root: the
 * files directly in src/ (main.ts, the service's wiring, config, migrations, index). `service` is
 * captured so two services' code can be told apart. A file anywhere else is refused
 * (boundaries/no-unknown-files): a new folder is a decision, made here.
 */
const ELEMENTS = [
  // The generated Prisma client: only store/ may import it.
  { type: 'database-client', pattern: 'services/*/src/store/generated', partialMatch: false, capture: ['service'] },
  { type: 'domain', pattern: 'services/*/src/domain', partialMatch: false, capture: ['service'] },
  { type: 'store', pattern: 'services/*/src/store', partialMatch: false, capture: ['service'] },
  // Everything inbound: gRPC handlers, HTTP routes, JetStream consumers, other listeners (signed notices).
  { type: 'api', pattern: 'services/*/src/api/{grpc,http,consumers,listeners}', partialMatch: false, capture: ['service', 'entry'] },
  { type: 'use-cases', pattern: 'services/*/src/use-cases', partialMatch: false, capture: ['service'] },
  // Outbound clients: processors, rates, the chain reader, the webhook HTTP sender, streams, crypto libraries.
  { type: 'adapters', pattern: 'services/*/src/adapters', partialMatch: false, capture: ['service'] },
  // What runs on a schedule or in a loop: sweepers, the chain check, the delivery worker.
  { type: 'jobs', pattern: 'services/*/src/jobs', partialMatch: false, capture: ['service'] },
  // The composition root: only files directly in src/. `mode: 'full'` is the one way an element can be a
  // set of files rather than a folder in 7.2.0 (deprecated there, hence legacy-warnings off below).
  { type: 'service', pattern: 'services/*/src/*.{ts,js}', mode: 'full', capture: ['service', 'file'] },
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

/**
 * The services' own packages (`@hc/checkout`, …, read from services/<name>/package.json): a service's
 * src never imports one, its own included. Test code (test/, e2e/) may.
 */
function servicePackages(rootPath) {
  const services = join(rootPath, 'services');
  return readdirSync(services, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(services, entry.name, 'package.json')))
    .map((entry) => JSON.parse(readFileSync(join(services, entry.name, 'package.json'), 'utf8')).name)
    .flatMap((name) => [name, `${name}/*`]);
}

/** `rootPath`: the folder that holds services/ (the repository, or a test's fixture tree). */
export function layerRules(rootPath) {
  return [
    {
      files: ['services/*/src/**/*.ts'],
      plugins: { boundaries },
      settings: { 'boundaries/elements': ELEMENTS, 'boundaries/root-path': rootPath, 'boundaries/legacy-warnings': false },
      rules: {
        'boundaries/no-unknown-files': 'error',
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
                // The event contracts (@hc/events/contracts: types, subjects, decode) are pure (docs/adr/0022);
                // the rest of @hc/events stays an I/O module for domain/.
                from: { element: { type: 'domain' } },
                allow: { to: { module: { source: '@hc/events', internalPath: 'contracts' } } },
              },
              {
                from: { element: { type: 'domain' } },
                disallow: { to: { element: { type: ['store', 'api', 'use-cases', 'adapters', 'jobs', 'service'] } } },
                message: 'domain/ imports no other layer: not store/, api/, use-cases/, adapters/, jobs/ or the composition root.',
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
                from: { element: { type: 'api' } },
                disallow: { to: { element: { type: 'store' } } },
                message: 'api/ reaches only use cases, never store/.',
              },
              {
                disallow: { to: { element: { captured: { service: '!{{ from.captured.service }}' } } } },
                message: "A service never imports another service's src: cross-service only through packages/ and @hc/proto.",
              },
              {
                disallow: { to: { module: { source: servicePackages(rootPath) } } },
                message:
                  "A service's src never imports a service package (@hc/checkout, @hc/emulator, …): cross-service only through packages/ and @hc/proto.",
              },
            ],
          },
        ],
      },
    },
  ];
}
