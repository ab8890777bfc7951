import { injectTraceHeaders } from '@hc/events';
import type { AttemptResult } from '../domain/attempt-outcome.ts';
import type { SignatureHeaders } from '../domain/signing.ts';
import type { DeliveryConnections } from './delivery-connections.ts';
import { sendHttpAttempt } from './http-sender.ts';
import { resolveTarget, TargetRefused, type HostResolver } from './target-resolver.ts';

export const USER_AGENT = 'hc-webhooks/1';

/** Where and how deliveries go: the same for real deliveries and for the endpoint checker. */
export interface DeliveryTarget {
  readonly resolver: HostResolver;
  readonly allowPrivateTargets: boolean;
  readonly timeoutMs: number;
  /** Extra trusted CA certificates (PEM) for https endpoints; tests use a self-signed receiver. */
  readonly ca?: string | undefined;
  /** The process's keep-alive connections to endpoints (docs/adr/0111). */
  readonly connections: DeliveryConnections;
}

/**
 * POSTs one signed body to an endpoint URL: the host is resolved and judged by the SSRF rules at
 * every send (a name may point elsewhere than at registration), the connection goes to the checked
 * address (a kept-alive one only from that address's pool), and a refused target is an attempt that
 * failed (`refused: …`), never a request.
 */
export async function postDelivery(
  target: DeliveryTarget,
  endpointUrl: string,
  signed: SignatureHeaders,
  body: string,
  extraHeaders: Record<string, string> = {},
): Promise<AttemptResult> {
  try {
    const url = new URL(endpointUrl);
    const address = await resolveTarget(url, target.resolver, target.allowPrivateTargets);
    const headers = injectTraceHeaders({ 'content-type': 'application/json', 'user-agent': USER_AGENT, ...extraHeaders, ...signed });
    const agent = target.connections.agentFor(url, address, target.ca);
    return await sendHttpAttempt({ url, address, headers, body, timeoutMs: target.timeoutMs, ca: target.ca, agent });
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    return { kind: 'error', error: `refused: ${error.message}` };
  }
}
