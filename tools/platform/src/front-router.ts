/**
 * The local platform's front door: one base URL (PUBLIC_BASE_URL) for merchants and buyers, as the
 * Ingress gives in Kubernetes (deploy/helm). `/pay/*`, `/track/*`, `/c/*`, `/docs` (the API reference) and `/.well-known/hc-statement-keys.json` go to the hosted pages,
 * `/dashboard/*` to the merchant dashboard, everything else to the gateway.
 *
 * It is the first proxy a client meets, so it passes on what it saw itself (forwardedHeaders): the
 * connection's peer address is appended to any X-Forwarded-For the client sent, and X-Forwarded-Proto,
 * -Host and -Port are its own. The pages and the dashboard trust exactly one hop
 * (PAGES_TRUST_PROXY_HOPS=1, DASHBOARD_TRUST_PROXY_HOPS=1 under ./scripts/start), so the address their
 * per-address limits count is the last entry: this router's observation, never a value the client
 * chose (docs/adr/0040).
 *
 *   FRONT_HOST=127.0.0.1 FRONT_PORT=8080 FRONT_GATEWAY_URL=http://127.0.0.1:8081 FRONT_PAGES_URL=http://127.0.0.1:8082 \
 *     node tools/platform/src/front-router.ts
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { ApiError } from '@hc/errors';
import { answerParserRefusals, API_HEADER_CODES } from '@hc/web/parser-refusals';

export interface FrontRoutes {
  readonly host: string;
  readonly port: number;
  readonly gatewayUrl: string;
  /** Further copies of the gateway (PLATFORM_REPLICAS=gateway): requests turn over all of them (gatewayPool). */
  readonly gatewayReplicaUrls?: readonly string[];
  readonly pagesUrl: string;
  /** The merchant dashboard; without it, /dashboard answers 404 like any unknown path. */
  readonly dashboardUrl?: string;
}

/** The paths the hosted pages serve; the gateway answers the rest (the API, its health checks). */
export function routesToPages(path: string): boolean {
  return PAGE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * Checkout pages, payment-link tracking pages, dashboard checkouts and their widget, the API reference,
 * and the statement keys' well-known document (docs/adr/0088).
 */
const PAGE_PREFIXES = ['/pay', '/track', '/c', '/docs', '/.well-known/hc-statement-keys.json'] as const;

/**
 * The X-Forwarded-* headers as the first proxy sets them: the peer address appended to what the
 * client claimed (the usual proxy behaviour; a server trusting one hop reads the last entry, ours),
 * the protocol, host and port this router itself served. http-proxy-middleware's `xfwd` would only
 * fill the headers the client left out, so a client could name its own address.
 */
export function forwardedHeaders(
  headers: IncomingMessage['headers'],
  connection: { readonly peer: string; readonly encrypted: boolean; readonly localPort: number },
): Record<'x-forwarded-for' | 'x-forwarded-proto' | 'x-forwarded-host' | 'x-forwarded-port', string> {
  const claimed = headers['x-forwarded-for'];
  const earlier = (Array.isArray(claimed) ? claimed.join(', ') : (claimed ?? '')).trim();
  return {
    'x-forwarded-for': earlier ? `${earlier}, ${connection.peer}` : connection.peer,
    'x-forwarded-proto': connection.encrypted ? 'https' : 'http',
    'x-forwarded-host': headers.host ?? '',
    'x-forwarded-port': String(connection.localPort),
  };
}

/** The merchant dashboard's paths (services/dashboard). */
export function routesToDashboard(path: string): boolean {
  return path === '/dashboard' || path.startsWith('/dashboard/');
}

export interface GatewayPool {
  /** The copy the next request goes to. */
  pick(): string;
  /** A request to `url` failed (the copy is down or restarting): others take the requests for a second. */
  failed(url: string): void;
}

/**
 * The gateway's copies, taken in turn per request as the Ingress balances the gateway's pods (round
 * robin); one that just failed a request is passed over for a second while another is up, so a killed
 * copy costs the requests it held and the one that found it gone, not every other one until it is back.
 */
export function gatewayPool(urls: readonly string[], now: () => number = Date.now): GatewayPool {
  const downUntil = new Map<string, number>();
  let next = 0;
  return {
    pick() {
      const up = urls.findIndex((_, i) => (downUntil.get(urls[(next + i) % urls.length]!) ?? 0) <= now());
      const url = urls[(next + Math.max(up, 0)) % urls.length]!;
      next = (next + Math.max(up, 0) + 1) % urls.length;
      return url;
    },
    failed(url) {
      downUntil.set(url, now() + 1_000);
    },
  };
}

/** What a client is answered when its request's backend is down or was lost mid-request. */
function backendLost(res: ServerResponse | Socket, api: boolean): void {
  if (!('writeHead' in res) || res.headersSent) return void res.destroy();
  // The API's documented 503 (docs/api-errors.md): a client retries it, with its Idempotency-Key.
  if (api)
    return void res
      .writeHead(503, { 'content-type': 'application/json' })
      .end(JSON.stringify(new ApiError('service_unavailable').toBody()));
  // A page: a plain 502, never a hang.
  res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway\n');
}

export async function startFrontRouter(routes: FrontRoutes): Promise<{ url: string; stop(): Promise<void> }> {
  const proxy = (target: string, api = false, pool?: GatewayPool) => {
    const chosen = new WeakMap<IncomingMessage, string>();
    return createProxyMiddleware<IncomingMessage, ServerResponse>({
      target,
      ...(pool && {
        router: (req: IncomingMessage) => {
          const url = pool.pick();
          chosen.set(req, url);
          return url;
        },
      }),
      // The X-Forwarded-* headers are set before proxying (forwardedHeaders), not by `xfwd`.
      xfwd: false,
      proxyTimeout: 30_000,
      on: {
        error: (_error, req, res) => {
          const url = chosen.get(req);
          if (pool && url) pool.failed(url);
          backendLost(res, api);
        },
      },
    });
  };
  const pages = proxy(routes.pagesUrl);
  const gatewayUrls = [routes.gatewayUrl, ...(routes.gatewayReplicaUrls ?? [])];
  const gateway = proxy(routes.gatewayUrl, true, gatewayUrls.length > 1 ? gatewayPool(gatewayUrls) : undefined);
  const dashboard = routes.dashboardUrl ? proxy(routes.dashboardUrl) : undefined;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const target = routesToPages(path) ? pages : routesToDashboard(path) ? dashboard : gateway;
    if (!target) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
    const peer = req.socket.remoteAddress;
    // A socket already closed has no peer address: nothing to answer.
    if (!peer) return void req.socket.destroy();
    Object.assign(
      req.headers,
      forwardedHeaders(req.headers, { peer, encrypted: 'encrypted' in req.socket, localPort: req.socket.localPort ?? 0 }),
    );
    void target(req, res, () => res.writeHead(404).end());
  });
  // What Node's parser refuses never reaches a backend: answered here, in the API's error shape on
  // /v1 paths and as a plain page elsewhere (never Node's bare status line).
  // /v1 answers name the API's own headers as the gateway does (a DEL in Idempotency-Key: invalid_idempotency_key).
  answerParserRefusals(server, undefined, 'by-path', { headerCodes: API_HEADER_CODES });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(routes.port, routes.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${routes.host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

if (import.meta.main) {
  const env = (name: string, fallback: string) => process.env[name] ?? fallback;
  const router = await startFrontRouter({
    host: env('FRONT_HOST', '127.0.0.1'),
    port: Number(env('FRONT_PORT', '8080')),
    gatewayUrl: env('FRONT_GATEWAY_URL', 'http://127.0.0.1:8081'),
    pagesUrl: env('FRONT_PAGES_URL', 'http://127.0.0.1:8082'),
    dashboardUrl: env('FRONT_DASHBOARD_URL', 'http://127.0.0.1:8083'),
  });
  process.stderr.write(`front router listening on ${router.url}\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void router.stop().then(() => process.exit(0)));
}
