import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import type { Writable } from 'node:stream';
import { createLogger } from '@hc/logging';
import type { PlatformClients } from '../../src/adapters/platform-clients.ts';
import { createDashboardApp } from '../../src/api/http/app.ts';
import type { DashboardDependencies } from '../../src/use-cases/dependencies.ts';

/**
 * The dashboard's Express app in-process over real HTTP on a free port, as the route tests run it:
 * plain-HTTP cookies, one proxy hop (each test browser picks its client address with X-Forwarded-For,
 * which the sign-in limits count), always ready.
 */
export async function serveDashboardApp(
  deps: DashboardDependencies,
  platform: PlatformClients,
  logs: Pick<Writable, 'write'>,
): Promise<{ base: string; close(): Promise<void> }> {
  const app = createDashboardApp({
    deps,
    platform,
    logger: createLogger('dashboard-routes-test', { level: 'info', destination: logs }),
    secureCookies: false,
    trustProxyHops: 1,
    ready: async () => undefined,
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
