// The chart:run test (test/chart-run.test.ts): not in the root suite, because it needs the images
// `pnpm images` builds; .ci/run runs it after building them:
//   node --experimental-vm-modules node_modules/jest/bin/jest.js -c deploy/helm/chart-run/jest.config.js
import { jestProject } from '../../../jest.preset.js';

const project = jestProject(import.meta.dirname, 'chart-run');
// No global setup: chart:run brings its own PostgreSQL and NATS containers.
delete project.globalSetup;
delete project.globalTeardown;
// One file at a time: each runs a whole chart:run (chart-run.test.ts, then the rolling upgrade).
export default { ...project, testTimeout: 120_000, maxWorkers: 1 };
