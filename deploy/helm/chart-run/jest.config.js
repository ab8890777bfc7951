// The chart:run test (test/chart-run.test.ts): not in the root suite, because it needs the images
// `pnpm images` builds; .ci/run runs it after building them:
//   node --experimental-vm-modules node_modules/jest/bin/jest.js -c deploy/helm/chart-run/jest.config.js
import { jestProject } from '../../../jest.preset.js';
export default { ...jestProject(import.meta.dirname, 'chart-run'), testTimeout: 120_000 };
