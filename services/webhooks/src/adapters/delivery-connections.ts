import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { ResolvedAddress } from './target-resolver.ts';

/**
 * How long a connection may sit idle before we close it: under the shortest keep-alive timeout common
 * receivers use (Node's 5 s), so we close it before the receiver does and a send rarely meets a socket
 * the other side is closing. A receiver's `Keep-Alive: timeout=` hint, when shorter, wins (Node's agent).
 */
export const IDLE_CONNECTION_MS = 4_000;
/** Idle connections kept per endpoint: about what the worker sends to one endpoint at once. */
const IDLE_CONNECTIONS_PER_ENDPOINT = 8;
/** How often pools left without a connection are forgotten (endpoints come and go). */
const SWEEP_EVERY_MS = 60_000;

/**
 * Keep-alive connections for webhook deliveries (docs/adr/0111): one pool per endpoint origin **and
 * checked address**. Each attempt resolves the host and judges the address by the SSRF rules first
 * (target-resolver.ts); only then is a pool chosen, by that address, so a reused connection always
 * goes to an address that passed the check for this very attempt. When the name starts resolving
 * elsewhere, the attempt gets another pool and the old one's idle connections time out unused.
 * Saves a TCP connect (and, for https, a TLS handshake) per delivery to a busy endpoint.
 */
export class DeliveryConnections {
  private readonly pools = new Map<string, http.Agent>();
  private lastSweep = performance.now();

  /** The pool for `url` on the checked `address` (with the extra CA, when one is trusted). */
  agentFor(url: URL, address: ResolvedAddress, ca?: string): http.Agent {
    this.sweep();
    const key = [url.protocol, url.host, address.address, ca === undefined ? '' : createHash('sha256').update(ca).digest('hex')].join('|');
    let agent = this.pools.get(key);
    if (!agent) {
      const options: http.AgentOptions = {
        keepAlive: true,
        maxFreeSockets: IDLE_CONNECTIONS_PER_ENDPOINT,
        // Applies to idle connections only: the agent closes a free socket that times out, while a
        // request in flight is bounded by the attempt's own timer (http-sender.ts).
        timeout: IDLE_CONNECTION_MS,
        // The most recently used connection first: the one least likely to have been closed meanwhile.
        scheduling: 'lifo',
      };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.pools.set(key, agent);
    }
    return agent;
  }

  /** How many connections are open (in use or idle), for tests and diagnostics. */
  openConnections(): number {
    let open = 0;
    for (const agent of this.pools.values()) open += countSockets(agent.sockets) + countSockets(agent.freeSockets);
    return open;
  }

  /** Closes every connection (the service stops after its worker has). */
  close(): void {
    for (const agent of this.pools.values()) agent.destroy();
    this.pools.clear();
  }

  /** Forgets pools with no connection and no waiting request, at most once a minute. */
  private sweep(): void {
    if (performance.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = performance.now();
    for (const [key, agent] of this.pools) {
      if (countSockets(agent.sockets) + countSockets(agent.freeSockets) + countSockets(agent.requests) === 0) {
        agent.destroy();
        this.pools.delete(key);
      }
    }
  }
}

function countSockets(lists: NodeJS.ReadOnlyDict<readonly unknown[]>): number {
  let count = 0;
  for (const list of Object.values(lists)) count += list?.length ?? 0;
  return count;
}
