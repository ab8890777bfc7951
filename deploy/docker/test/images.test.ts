// Risk covered: images that a registry or a platform team would refuse or misjudge — an image without a
// HEALTHCHECK (or one that podman's default OCI format dropped), a health check that says "healthy" for a
// service that cannot serve, or never says it; an image without an SBOM, an SBOM that is not CycloneDX,
// misses what the service runs (its own dependencies, gRPC) or lists development tools.
// Needs the images `pnpm images` built (and the SBOMs it wrote); .ci/run runs this project after them:
//   node --experimental-vm-modules node_modules/jest/bin/jest.js -c deploy/docker/jest.config.js
// The containers run on the host's network (127.0.0.1 is this machine's), so the checkout container
// reaches the test's PostgreSQL and NATS and the pages container reaches checkout on a free port.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import cdx from '@cyclonedx/cyclonedx-library';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase, eventually, freePort, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';

const ROOT = join(import.meta.dirname, '../../..');
const client = spawnSync('podman', ['--version']).status === 0 ? 'podman' : 'docker';
const REPOSITORY = process.env.IMAGE_REPOSITORY ?? 'hosted-checkout';
const SBOM_DIR = process.env.SBOM_DIR ?? join(ROOT, 'deploy/out/sbom');
const VERSION = /^appVersion:\s*["']?([^"'\s]+)/m.exec(readFileSync(join(ROOT, 'deploy/helm/hosted-checkout/Chart.yaml'), 'utf8'))![1]!;
const SERVICES = readdirSync(join(ROOT, 'services')).filter((name) => existsSync(join(ROOT, 'services', name, 'src/main.ts')));
const image = (service: string): string => `${REPOSITORY}/${service}:${VERSION}`;
const engine = (...args: string[]): string => execFileSync(client, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

interface HealthConfig {
  Test?: string[];
}
/** The image's health check as the engine reports it (podman: top-level HealthCheck; Docker: Config.Healthcheck). */
function healthConfig(service: string): HealthConfig | undefined {
  const [inspected] = JSON.parse(engine('image', 'inspect', image(service))) as Array<{
    HealthCheck?: HealthConfig;
    Healthcheck?: HealthConfig;
    Config?: { Healthcheck?: HealthConfig };
  }>;
  return inspected?.HealthCheck ?? inspected?.Healthcheck ?? inspected?.Config?.Healthcheck;
}

describe.each(SERVICES)('the %s image', (service) => {
  it('has a HEALTHCHECK that runs the node health client, exec form (no shell)', () => {
    expect(healthConfig(service)?.Test).toEqual(['CMD', 'node', '/app/deploy/docker/healthcheck.ts']);
  });

  it('has a CycloneDX 1.6 SBOM listing the packages it runs and no development tool', async () => {
    const text = readFileSync(join(SBOM_DIR, `${service}.cdx.json`), 'utf8');
    expect(await new cdx.Validation.JsonStrictValidator(cdx.Spec.Version.v1dot6).validate(text)).toBeNull();
    const bom = JSON.parse(text) as {
      bomFormat: string;
      specVersion: string;
      metadata: { component: { name: string; type: string } };
      components: Array<{ name: string; group?: string; version?: string; purl?: string; 'bom-ref': string }>;
      dependencies: Array<{ ref: string; dependsOn?: string[] }>;
    };
    expect([bom.bomFormat, bom.specVersion]).toEqual(['CycloneDX', '1.6']);
    expect(bom.metadata.component).toMatchObject({ type: 'container', name: image(service) });
    const names = new Set(bom.components.map((c) => (c.group ? `${c.group}/${c.name}` : c.name)));
    const own = JSON.parse(readFileSync(join(ROOT, 'services', service, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    // Every production dependency of the service, but the Prisma CLI, which the build leaves out on purpose.
    const runtime = Object.keys(own.dependencies).filter((name) => name !== 'prisma');
    expect(runtime.filter((name) => !names.has(name))).toEqual([]);
    if (own.dependencies['@hc/grpc']) {
      const grpc = bom.components.find((c) => c.purl?.startsWith('pkg:npm/%40grpc/grpc-js@'));
      expect(grpc?.version).toMatch(/^\d+\.\d+\.\d+/);
    }
    const tools = [
      'jest',
      '@jest/globals',
      '@swc/core',
      '@swc/jest',
      'eslint',
      'typescript',
      'prisma',
      'turbo',
      '@hc/test-kit',
      'playwright-core',
    ];
    expect(tools.filter((name) => names.has(name))).toEqual([]);
    const root = bom.dependencies.find((d) => d.ref === `image:${service}`);
    expect(root?.dependsOn).toEqual(expect.arrayContaining([`services/${service}`, 'platform:node']));
  });
});

describe('HEALTHCHECK of running containers', () => {
  const suffix = randomBytes(3).toString('hex');
  const started: string[] = [];
  let database: TestDatabase;
  let pagesPort: number;
  let checkoutPort: number;

  beforeAll(async () => {
    database = await createTestDatabase('checkout', join(ROOT, 'services/checkout/prisma/migrations'));
    [pagesPort, checkoutPort] = [await freePort(), await freePort()];
  });
  afterAll(async () => {
    for (const name of started) spawnSync(client, ['rm', '-f', '-t', '0', name]);
    await database?.drop();
  });

  /**
   * Runs `service`'s image with its own command and health check. Docker runs the check by itself, here
   * every second with no start period; podman (4.3 keeps the image's timing) runs it when asked.
   */
  function start(service: string, env: Record<string, string>): string {
    const name = `hc-images-test-${service}-${suffix}`;
    const timing = client === 'docker' ? ['--health-start-period', '1s', '--health-retries', '1', '--health-interval', '1s'] : [];
    const envArgs = Object.entries({ LOG_LEVEL: 'warn', ...env }).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
    engine('run', '-d', '--name', name, '--network', 'host', '--read-only', '--tmpfs', '/tmp', ...timing, ...envArgs, image(service));
    started.push(name);
    return name;
  }

  interface Health {
    verdict: string;
    status: string;
    output: string;
  }
  /**
   * The verdict of the container's health check and what it printed. podman: `podman healthcheck run`
   * (without systemd it schedules none), whose exit status is the verdict; a failure inside the image's
   * 60 s start period leaves the status "starting", a success makes it "healthy". Docker: the status.
   */
  async function health(container: string): Promise<Health> {
    const run = client === 'podman' ? spawnSync('podman', ['healthcheck', 'run', container], { encoding: 'utf8' }) : undefined;
    const state = JSON.parse(engine('inspect', '--format', '{{json .State.Health}}', container)) as {
      Status: string;
      Log?: Array<{ Output: string }>;
    };
    const verdict = run ? (run.status === 0 ? 'healthy' : 'unhealthy') : state.Status;
    return { verdict, status: state.Status, output: state.Log?.at(-1)?.Output ?? '' };
  }
  const healthy = (h: Health): boolean => h.status === 'healthy';

  it('pages (HTTP /readyz) is unhealthy while checkout is not there, checkout (gRPC health) becomes healthy, then pages does', async () => {
    const pages = start('pages', {
      PAGES_HOST: '127.0.0.1',
      PAGES_PORT: String(pagesPort),
      CHECKOUT_GRPC_ADDRESS: `127.0.0.1:${checkoutPort}`,
    });
    // Pages answers /healthz (it runs) while /readyz fails (its checkout does not answer): not ready.
    const status = (path: string): Promise<number> =>
      fetch(`http://127.0.0.1:${pagesPort}${path}`).then(
        (r) => r.status,
        () => 0,
      );
    expect(
      await eventually(
        () => status('/healthz'),
        (code) => code === 200,
        60_000,
      ),
    ).toBe(200);
    expect(await status('/readyz')).toBeGreaterThanOrEqual(500);
    const notReady = await eventually(
      () => health(pages),
      (h) => h.verdict === 'unhealthy',
      20_000,
    );
    expect(notReady).toEqual({
      verdict: 'unhealthy',
      status: expect.stringMatching(/^(starting|unhealthy)$/),
      output: expect.stringContaining('/readyz: not ready'),
    });

    const checkout = start('checkout', {
      CHECKOUT_DATABASE_URL: database.url,
      CHECKOUT_GRPC_ADDRESS: `127.0.0.1:${checkoutPort}`,
      NATS_URL: testNatsUrl(),
      NATS_SUBJECT_PREFIX: testNatsPrefix('images'),
    });
    const grpcCheck = expect.stringContaining(`grpc.health.v1.Health/Check 127.0.0.1:${checkoutPort}: ready`);
    expect(await eventually(() => health(checkout), healthy, 90_000)).toEqual({ verdict: 'healthy', status: 'healthy', output: grpcCheck });
    const httpCheck = expect.stringContaining(`GET http://127.0.0.1:${pagesPort}/readyz: ready`);
    expect(await eventually(() => health(pages), healthy, 30_000)).toEqual({ verdict: 'healthy', status: 'healthy', output: httpCheck });
  }, 180_000);
});
