// What other workspace packages (the platform runner, benchmarks, tests) may use of the pages.
export { startPages } from './pages-server.ts';
export type { RunningPages } from './pages-server.ts';
export { loadPagesConfig } from './config.ts';
export type { PagesConfig } from './config.ts';
export { paths, pathTo } from './paths.ts';
