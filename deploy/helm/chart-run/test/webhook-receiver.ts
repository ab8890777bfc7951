/**
 * A merchant's webhook receiver for the chart:run test, run as a container on the runner's network
 * (the webhooks service reaches it by name); it keeps what it received, raw, and lists it on GET /received
 * through its port published on 127.0.0.1.
 */
import { createServer } from 'node:http';

const received: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/received') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(204).end();
  });
}).listen(8080, '0.0.0.0');
