import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@hc/logging';
import { answerParserRefusals, type HeaderCodes, type RefusalStyle } from './parser-refusals.ts';

export interface HttpListenerOptions {
  readonly host: string;
  /** 0 for a free port (tests). */
  readonly port: number;
  readonly logger?: Logger;
  /** How requests Node's parser refuses are answered (parser-refusals.ts); absent: Node's bare answer. */
  readonly refusals?: RefusalStyle;
  readonly headerCodes?: HeaderCodes;
  /**
   * Slow-client protection for a public listener: the headers within 10 s, the whole request within
   * 30 s. Off for internal listeners whose only client is ours (the emulator).
   */
  readonly slowClientLimits?: boolean;
  /** Idle keep-alive sockets are kept this long (the gateway outlives its clients' idle limits). */
  readonly keepAliveTimeoutMs?: number;
  /**
   * At stop: `drain` lets requests in flight finish (idle sockets close at once), `drop` closes every
   * socket (listeners whose callers retry, like a processor redelivering a notice).
   */
  readonly onStop?: 'drain' | 'drop';
  /**
   * The longest a drain waits for requests in flight before it closes every socket (default 10 s):
   * a request that never ends must not keep a stop (and a rolling upgrade's old pod, or a test's
   * teardown) waiting without end. Kubernetes's grace period is 30 s by default.
   */
  readonly drainMs?: number;
}

/** A started HTTP listener: a part of a service (a Stoppable of @hc/runtime/service). */
export interface HttpListener {
  /** `http://host:port`. */
  readonly url: string;
  /** `host:port`. */
  readonly address: string;
  readonly server: Server;
  stop(): Promise<void>;
}

/**
 * The one way a service listens for HTTP: the parser's refusals answered in the listener's style, the
 * slow-client limits, the bind awaited (a port in use fails the start), and a stop that drains or
 * drops the connections. The gateway, the pages, the dashboard, the processors' notices and the
 * emulator each had their own copy of these lines.
 */
export async function listenHttp(handler: RequestListener, options: HttpListenerOptions): Promise<HttpListener> {
  const server = createServer(handler);
  if (options.refusals) answerParserRefusals(server, options.logger, options.refusals, { headerCodes: options.headerCodes });
  if (options.slowClientLimits ?? true) {
    server.requestTimeout = 30_000;
    server.headersTimeout = 10_000;
  }
  if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = `${options.host}:${(server.address() as AddressInfo).port}`;
  let stopping: Promise<void> | undefined;
  return {
    url: `http://${address}`,
    address,
    server,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        // A socket that answered its last request while we drain goes idle and would keep the close
        // waiting on the client's keep-alive: idle sockets are closed as they appear.
        const idleSweep = setInterval(() => server.closeIdleConnections(), 50);
        const deadline = setTimeout(() => server.closeAllConnections(), options.drainMs ?? 10_000);
        server.close(() => {
          clearInterval(idleSweep);
          clearTimeout(deadline);
          resolve();
        });
        if (options.onStop === 'drop') server.closeAllConnections();
        else server.closeIdleConnections();
      });
      return stopping;
    },
  };
}
