// The tests of the start/operator scripts. Their folder is scripts/tests/ because scripts/test is the
// test runner itself.
import { jestProject } from '../jest.preset.js';
export default { ...jestProject(import.meta.dirname, 'scripts'), testMatch: ['<rootDir>/tests/**/*.test.ts'] };
