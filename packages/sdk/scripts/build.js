// `pnpm build` (and prepack, so `pnpm pack` always ships a fresh build): dist/esm and dist/cjs from
// src/ and bin/ with the workspace's tsc, twice — once as ES modules, once as CommonJS — each with
// its .d.ts. dist/cjs gets a package.json of `"type": "commonjs"` so Node and TypeScript read its .js
// and .d.ts files as CommonJS although this package is `"type": "module"`. Why plain tsc: README.md.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

process.chdir(join(import.meta.dirname, '..'));
if (!existsSync('src/generated/openapi.ts')) {
  process.stderr.write('build: src/generated/openapi.ts is missing: run `pnpm generate` first\n');
  process.exit(1);
}
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync('dist', { recursive: true, force: true });
for (const project of ['tsconfig.build.json', 'tsconfig.build-cjs.json']) {
  execFileSync(process.execPath, [tsc, '-p', project], { stdio: 'inherit' });
}
writeFileSync('dist/cjs/package.json', '{ "type": "commonjs" }\n');
