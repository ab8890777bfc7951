/**
 * The readiness checks a probe makes, from a process that is not the kubelet: an HTTP GET that must
 * answer 2xx/3xx, the standard gRPC health check (grpc.health.v1.Health/Check with an empty service name
 * must answer SERVING), a TCP connection. Node built-ins only: the chart's `helm test` pods run this file
 * from a ConfigMap (files/helm-test.ts), and `pnpm chart:run` probes its containers with it
 * (deploy/helm/chart-run/engine.ts). Each answers false, never throws.
 */
import { connect } from 'node:net';
import { connect as http2Connect } from 'node:http2';

export async function httpReady(url: string, timeoutMs = 3000): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await response.arrayBuffer();
    return response.status >= 200 && response.status < 400;
  } catch {
    return false;
  }
}

export function tcpReady(host: string, port: number, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: timeoutMs });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/**
 * grpc.health.v1.Health/Check over plain HTTP/2 (the chart's gRPC services listen without TLS inside the
 * cluster). The request is the empty message; the answer's field 1 (status) SERVING is the bytes 08 01.
 */
export function grpcReady(host: string, port: number, timeoutMs = 3000): Promise<boolean> {
  return new Promise((resolve) => {
    const session = http2Connect(`http://${host}:${port}`);
    const done = (ok: boolean): void => {
      session.destroy();
      resolve(ok);
    };
    session.once('error', () => done(false));
    session.setTimeout(timeoutMs, () => done(false));
    const stream = session.request({
      ':method': 'POST',
      ':path': '/grpc.health.v1.Health/Check',
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    const chunks: Buffer[] = [];
    let status: string | undefined;
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('trailers', (trailers) => (status = String(trailers['grpc-status'])));
    stream.on('error', () => done(false));
    stream.on('end', () => {
      const body = Buffer.concat(chunks);
      done(status === '0' && body.length >= 7 && body[5] === 0x08 && body[6] === 0x01);
    });
    stream.end(Buffer.from([0, 0, 0, 0, 0]));
  });
}
