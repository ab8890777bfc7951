/**
 * The Ingress of `pnpm chart:run`: what an ingress controller does with the chart's rendered Ingress,
 * for one machine. ROUTES is the rendered paths (pathType Prefix) with the Service and port each goes
 * to; the longest matching prefix wins, whole path segments only, as Kubernetes defines Prefix. Adds
 * X-Forwarded-For/-Proto/-Host the way ingress-nginx does. Runs in a container on the runner's network
 * (node:24 base image, this file mounted read-only); only its port is published, on 127.0.0.1.
 */
import { createServer, request } from 'node:http';

interface Route {
  path: string;
  target: string;
}
const routes = (JSON.parse(process.env['ROUTES'] ?? '[]') as Route[]).sort((a, b) => b.path.length - a.path.length);

function matches(prefix: string, path: string): boolean {
  if (prefix === '/') return true;
  const p = prefix.replace(/\/$/, '');
  return path === p || path.startsWith(`${p}/`);
}

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const route = routes.find((r) => matches(r.path, path));
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  const [host, port] = route.target.split(':');
  const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
  const upstream = request(
    {
      host,
      port: Number(port),
      method: req.method,
      path: req.url,
      headers: { ...req.headers, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'http', 'x-forwarded-host': req.headers.host ?? '' },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('bad gateway\n');
  });
  req.pipe(upstream);
});
server.listen(8080, '0.0.0.0');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
