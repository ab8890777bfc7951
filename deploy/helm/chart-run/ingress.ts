/**
 * The Ingress of `pnpm chart:run`: what an ingress controller does with the chart's rendered Ingress,
 * for one machine. ROUTES is the rendered paths (pathType Prefix) with the Service and port each goes
 * to; the longest matching prefix wins, whole path segments only, as Kubernetes defines Prefix. Adds
 * X-Forwarded-For/-Proto/-Host the way ingress-nginx does. Runs in a container on the runner's network
 * (node:24 base image, this file mounted read-only); only its port is published, on 127.0.0.1.
 *
 * Balancing, as ingress-nginx does over a Service's endpoints: the ready replicas' addresses of the
 * Service, from ENDPOINTS_FILE (chart:run keeps it, endpoints.ts), or else from DNS (every replica's
 * container holds the Service's name as a network alias); each request goes to the next address in
 * turn (round robin per Service). A connection refused (a replica not listening yet, or gone)
 * is tried on the next address, as nginx's `proxy_next_upstream error`, and so is a kept-alive
 * connection the replica closed before reading the request; nothing else is retried. Every answer
 * names the replica's address in `x-chart-run-upstream`, which the tests count.
 */
import { createServer, request, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { lookup } from 'node:dns/promises';
import { readFileSync, statSync } from 'node:fs';

interface Route {
  path: string;
  target: string;
}
const routes = (JSON.parse(process.env['ROUTES'] ?? '[]') as Route[]).sort((a, b) => b.path.length - a.path.length);
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const turn = new Map<string, number>();
/** Errors that prove the request never reached a server, so sending it to another replica is safe. */
const NOT_SENT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);

function matches(prefix: string, path: string): boolean {
  if (prefix === '/') return true;
  const p = prefix.replace(/\/$/, '');
  return path === p || path.startsWith(`${p}/`);
}

const endpointsFile = process.env['ENDPOINTS_FILE'];
let listed: { changed: number; lists: Record<string, string[]> } = { changed: -1, lists: {} };

/** The ready addresses chart:run lists for the Service (read again when the file changed), if it lists it. */
function listedEndpoints(service: string): string[] | undefined {
  if (!endpointsFile) return undefined;
  const changed = statSync(endpointsFile, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  if (changed !== listed.changed) {
    listed = { changed, lists: changed < 0 ? {} : (JSON.parse(readFileSync(endpointsFile, 'utf8')) as Record<string, string[]>) };
  }
  return listed.lists[service];
}

/** The Service's addresses, starting with the next one in turn. */
async function endpoints(host: string): Promise<string[]> {
  const addresses = listedEndpoints(host) ?? (await lookup(host, { all: true, family: 4 })).map((a) => a.address).sort();
  if (addresses.length === 0) return [];
  const next = (turn.get(host) ?? 0) % addresses.length;
  turn.set(host, next + 1);
  return [...addresses.slice(next), ...addresses.slice(0, next)];
}

function forward(req: IncomingMessage, body: Buffer, address: string, port: number): Promise<IncomingMessage> {
  const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
  return new Promise((resolve, reject) => {
    const upstream = request(
      {
        host: address,
        port,
        agent,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          'x-forwarded-for': forwardedFor,
          'x-forwarded-proto': 'http',
          'x-forwarded-host': req.headers.host ?? '',
        },
      },
      resolve,
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      const retriable = NOT_SENT.has(error.code ?? '') || (upstream.reusedSocket && error.code === 'ECONNRESET');
      reject(Object.assign(error, { retriable }));
    });
    upstream.end(body);
  });
}

async function proxy(req: IncomingMessage, res: ServerResponse, route: Route): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const [host, port] = route.target.split(':');
  let addresses: string[] = [];
  try {
    addresses = await endpoints(host!);
  } catch {
    // No replica holds the name (none started yet): no endpoints.
  }
  for (const address of addresses) {
    try {
      const answer = await forward(req, body, address, Number(port));
      res.writeHead(answer.statusCode ?? 502, [...answer.rawHeaders, 'x-chart-run-upstream', address]);
      answer.pipe(res);
      return;
    } catch (error) {
      if (!(error as { retriable?: boolean }).retriable) break;
    }
  }
  res.writeHead(addresses.length === 0 ? 503 : 502, { 'content-type': 'text/plain' }).end('bad gateway\n');
}

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const route = routes.find((r) => matches(r.path, path));
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  proxy(req, res, route).catch(() => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('bad gateway\n');
  });
});
server.listen(8080, '0.0.0.0');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
