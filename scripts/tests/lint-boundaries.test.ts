// Risk covered: the layer rules (eslint.boundaries.js, docs/adr/0023) stop refusing what they exist to
// refuse (a plugin upgrade changes a selector's meaning, a policy is dropped, eslint.config.js stops
// including them) and CI stays green while layers leak. Each fixture under boundaries-fixtures/ breaks
// exactly one rule and must be refused with that rule's message; the allowed fixtures must lint clean.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { layerRules } from '../../eslint.boundaries.js';

const repository = join(import.meta.dirname, '..', '..');
const fixtures = join(import.meta.dirname, 'boundaries-fixtures');
const alpha = 'services/alpha/src';

let results: Map<string, string[]>;

beforeAll(async () => {
  const eslint = new ESLint({
    cwd: fixtures,
    overrideConfigFile: true,
    ignore: false,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...layerRules(fixtures)],
  });
  const linted = await eslint.lintFiles(['services/**/*.ts']);
  results = new Map(
    linted.map((result) => [
      result.filePath.slice(fixtures.length + 1),
      result.messages.map((message) => `${message.ruleId ?? 'fatal'}: ${message.message}`),
    ]),
  );
});

describe('layer rules', () => {
  it.each([
    [`${alpha}/domain/breaks-io.ts`, 'domain/ holds pure rules: no I/O module'],
    [`${alpha}/domain/breaks-nats.ts`, 'domain/ holds pure rules: no I/O module'],
    [`${alpha}/domain/breaks-layer.ts`, 'domain/ imports no other layer'],
    [`${alpha}/domain/breaks-adapters.ts`, 'domain/ imports no other layer'],
    [`${alpha}/use-cases/breaks-database-client.ts`, 'Only store/ touches a database client.'],
    [`${alpha}/use-cases/breaks-generated-client.ts`, 'Only store/ touches a database client (the generated Prisma client included).'],
    [`${alpha}/api/grpc/breaks-store.ts`, 'api/ reaches only use cases, never store/.'],
    [`${alpha}/api/http/breaks-store.ts`, 'api/ reaches only use cases, never store/.'],
    ['services/beta/src/use-cases/breaks-other-service.ts', "A service never imports another service's src"],
    ['services/beta/src/api/consumers/breaks-other-service-package.ts', "A service's src never imports a service package"],
    ['services/beta/src/use-cases/breaks-own-service-package.ts', "A service's src never imports a service package"],
  ])('refuses %s', (file, message) => {
    const messages = results.get(file);
    expect(messages).toHaveLength(1);
    expect(messages?.[0]).toContain(`boundaries/dependencies: ${message}`);
  });

  // A folder that is none of the six roles (or a file directly in api/) belongs to no layer, so no
  // rule would ever apply to it: it is refused as such.
  it.each([`${alpha}/notices/breaks-unknown-folder.ts`, `${alpha}/api/breaks-unknown-entry.ts`])(
    'refuses %s, outside every role',
    (file) => {
      const messages = results.get(file);
      expect(messages).toHaveLength(1);
      expect(messages?.[0]).toContain('boundaries/no-unknown-files');
    },
  );

  it.each([
    `${alpha}/store/accounts.ts`,
    `${alpha}/domain/account-rules.ts`,
    `${alpha}/use-cases/get-account.ts`,
    `${alpha}/api/grpc/handlers.ts`,
    `${alpha}/adapters/rate-source.ts`,
    `${alpha}/jobs/sweeper.ts`,
    `${alpha}/main.ts`,
  ])('lets %s through', (file) => {
    expect(results.get(file)).toEqual([]);
  });

  it('are part of the repository lint (eslint.config.js) for every layer of every service', async () => {
    const eslint = new ESLint({ cwd: repository });
    for (const file of ['services/gateway/src/domain/api-key.ts', 'services/checkout/src/api/consumers/customer-erasure.ts']) {
      const config = (await eslint.calculateConfigForFile(join(repository, file))) as { rules: Record<string, unknown> };
      expect(config.rules['boundaries/dependencies']).toEqual(expect.arrayContaining([2]));
      expect(config.rules['boundaries/no-unknown-files']).toEqual(expect.arrayContaining([2]));
    }
  });
});
