// Shared Jest settings: ESM mode, TypeScript through @swc/jest, one config per workspace package.
// Unit tests sit beside the code (src/**/*.test.ts); integration tests in test/ (*.int.test.ts).
// globalSetup starts PostgreSQL/NATS containers when a Docker engine answers (see @hc/test-kit).
import { join } from 'node:path';

const testKit = join(import.meta.dirname, 'packages/test-kit/src');
/** @param {string} rootDir @param {string} displayName */
export function jestProject(rootDir, displayName) {
  return {
    displayName,
    rootDir,
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
    transform: {
      '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2024' }, module: { type: 'es6' } }],
    },
    globalSetup: join(testKit, 'global-setup.ts'),
    globalTeardown: join(testKit, 'global-teardown.ts'),
    testTimeout: 60_000,
  };
}
