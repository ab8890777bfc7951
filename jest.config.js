// The whole suite: every workspace package's own jest.config.js, in one run, with one summary line.
export default {
  projects: [
    '<rootDir>/packages/*/jest.config.js',
    '<rootDir>/services/*/jest.config.js',
    '<rootDir>/tools/*/jest.config.js',
    '<rootDir>/scripts/jest.config.js',
    '<rootDir>/deploy/helm/jest.config.js',
    '<rootDir>/e2e/jest.config.js',
  ],
  maxWorkers: 2,
  // A global option: per-project values are ignored when projects run together. A hang still fails
  // within a minute; 30 s was too short for a browser walk on CI's loaded two cores (1 Dec).
  testTimeout: 60_000,
};
