// Risk covered (issue 44): @hosted-checkout/sdk working only inside this repository — a packed package
// with .ts on its runtime path (Node refuses type stripping under node_modules), without its generated
// types (TS2307), that a strict TypeScript project or CommonJS cannot use, that needs a newer Node than
// it claims, or whose bin does not start. `pnpm pack` (which builds dist/), then fresh projects in the
// system temp directory, outside the workspace, install the tarball with npm and run create → list
// with auto-paging → a real delivery from the platform, verified → a typed error, on this Node and on
// the machine's older one (/usr/bin/node, Debian's), against a real platform (gateway, checkout,
// webhooks; PostgreSQL, NATS, HTTP).
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MERCHANT_PROJECTS, type MerchantProject, type ProgramReport } from './sdk-package-projects.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

const run = promisify(execFile);
const SDK_DIR = fileURLToPath(new URL('../../packages/sdk', import.meta.url));
const TSC = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
/** Debian's nodejs on this kind of machine: the oldest major the package claims (its `engines`). */
const OLDER_NODE = '/usr/bin/node';
const MINUTES = 60_000;

let platform: Platform;
let merchant: TestMerchant;
let workDir: string;
let tarball: string;
let nodes: string[];

/** Runs a command; on failure the error carries its stdout and stderr (shown by jest). */
async function sh(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  try {
    return (await run(file, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'hc-sdk-package-'));
  // prepack builds dist/ (tsc, ESM and CommonJS) from the generated types `pnpm generate` wrote.
  await sh('pnpm', ['pack', '--pack-destination', workDir], SDK_DIR);
  const packed = (await readdir(workDir)).filter((name) => name.endsWith('.tgz'));
  expect(packed).toHaveLength(1);
  tarball = join(workDir, packed[0]!);

  const older = (await sh(OLDER_NODE, ['--version'], workDir)).trim();
  if (Number(/^v(\d+)/.exec(older)?.[1]) >= Number(/^v(\d+)/.exec(process.version)?.[1]))
    throw new Error(`${OLDER_NODE} is ${older}, not older than ${process.version}: install Debian's nodejs`);
  nodes = [process.execPath, OLDER_NODE];

  platform = await startPlatform({ webhooks: true });
  merchant = await platform.merchant();
}, 10 * MINUTES);

afterAll(async () => {
  await platform?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds built JavaScript, declarations and the generated API types, and no .ts source', async () => {
    const files = (await sh('tar', ['-tzf', tarball], workDir)).trim().split('\n');
    expect(files).toContain('package/dist/esm/src/generated/openapi.d.ts');
    expect(files).toContain('package/dist/cjs/src/index.js');
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(await sh('tar', ['-xzOf', tarball, 'package/package.json'], workDir)) as Record<string, unknown>;
    const runtimePaths = JSON.stringify([manifest['exports'], manifest['main'], manifest['bin']]);
    expect(runtimePaths).not.toMatch(/(?<!\.d)\.ts"/);
    expect(manifest).toMatchObject({ sideEffects: false, engines: { node: expect.any(String) }, files: expect.any(Array) });
    expect(manifest['private']).toBeUndefined();
    expect(Object.keys(manifest['dependencies'] as object).sort()).toEqual([
      'csv-parse',
      'decimal.js',
      'openapi-fetch',
      'standardwebhooks',
    ]);
  });
});

/** A fresh project in the temp directory with the packed SDK installed by npm (and compiled, for TypeScript). */
async function makeProject(project: MerchantProject): Promise<string> {
  const dir = await mkdtemp(join(workDir, 'project-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'merchant', private: true, type: project.packageType }));
  await writeFile(join(dir, project.file), project.source);
  const extra = project.typescript ? ['@types/node@24'] : [];
  await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball, ...extra], dir);
  if (project.typescript) {
    await sh(process.execPath, [TSC, '--init'], dir);
    await sh(process.execPath, [TSC, '-p', '.'], dir);
  }
  return dir;
}

describe.each(MERCHANT_PROJECTS)('a $name project outside the workspace', (project) => {
  it(
    'installs the tarball and runs create → list → verified delivery → typed error on each Node',
    async () => {
      const dir = await makeProject(project);
      for (const node of nodes) {
        // A clean environment: nothing of this repository's (NODE_OPTIONS, PATH to its tools) leaks in.
        const env = { PATH: '/usr/bin:/bin', HOME: dir, HC_API_URL: platform.url, HC_API_KEY: merchant.testKey };
        const output = await sh(node, ['main.js'], dir, env);
        const report = JSON.parse(output.trim().split('\n').at(-1)!) as ProgramReport;
        expect(report.resolved.startsWith(join(dir, 'node_modules', '@hosted-checkout', 'sdk', 'dist'))).toBe(true);
        expect(report.resolved).toMatch(/\.js$/);
        expect(report.created).toHaveLength(3);
        // limit 2: at least two pages, walked by the iterator; newest first.
        expect(report.listed.length).toBeGreaterThanOrEqual(3);
        expect(report.listed.filter((id) => report.created.includes(id))).toEqual([...report.created].reverse());
        expect(report).toMatchObject({ eventType: 'payment.expired', eventPaymentId: report.created[0], notFound: true });
      }
      if (project.name === 'ESM') {
        for (const node of nodes) {
          const bin = join(
            dir,
            'node_modules',
            '@hosted-checkout',
            'sdk',
            (
              JSON.parse(await readFile(join(dir, 'node_modules/@hosted-checkout/sdk/package.json'), 'utf8')) as {
                bin: Record<string, string>;
              }
            ).bin['hosted-checkout']!,
          );
          expect(await sh(node, [bin, '--help'], dir)).toContain('Usage: hosted-checkout listen');
        }
      }
    },
    10 * MINUTES,
  );
});
