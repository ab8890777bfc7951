// The tests that belong to the repository rather than to one package: the layer-rule fixtures and the
// README walkthrough. Their folder is scripts/tests/ because scripts/test is the test runner itself.
// (The platform runner's tests live with it, in tools/platform/test.)
import { jestProject } from '../jest.preset.js';
export default { ...jestProject(import.meta.dirname, 'scripts'), testMatch: ['<rootDir>/tests/**/*.test.ts'] };
