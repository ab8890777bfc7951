// The images test (test/images.test.ts): not in the root suite, because it needs the images and SBOMs
// `pnpm images` builds; .ci/run runs it after building them:
//   node --experimental-vm-modules node_modules/jest/bin/jest.js -c deploy/docker/jest.config.js
import { jestProject } from '../../jest.preset.js';

export default { ...jestProject(import.meta.dirname, 'images'), testTimeout: 120_000 };
