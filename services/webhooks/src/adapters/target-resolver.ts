import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { judgeTargetAddress } from '../domain/target-policy.ts';

export interface ResolvedAddress {
  readonly address: string;
  /** 4 or 6. */
  readonly family: number;
}

/** Host name → every address it resolves to. Injectable so tests can make a name resolve wherever they like. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Why a URL's host may not be sent to: it does not resolve, or an address it resolves to is refused. */
export class TargetRefused extends Error {
  override name = 'TargetRefused';
  readonly reason: 'unresolvable' | 'forbidden_address';

  constructor(reason: 'unresolvable' | 'forbidden_address', message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * The address to connect to for `url`, after the SSRF check. Every address the name resolves to
 * must pass (a name with one public and one private address is refused: which one a client picks is
 * not ours to predict). The caller connects to the returned address itself, never resolving again,
 * so a DNS answer that changes between check and connect (DNS rebinding) cannot slip through.
 */
export async function resolveTarget(url: URL, resolver: HostResolver, allowPrivate: boolean): Promise<ResolvedAddress> {
  // URL keeps IPv6 literals in brackets.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: ResolvedAddress[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await resolver(host);
    } catch (error) {
      throw new TargetRefused('unresolvable', `${host} does not resolve (${(error as { code?: string }).code ?? String(error)})`);
    }
    if (addresses.length === 0) throw new TargetRefused('unresolvable', `${host} does not resolve`);
  }
  for (const { address } of addresses) {
    const verdict = judgeTargetAddress(address, allowPrivate);
    if (!verdict.allowed) throw new TargetRefused('forbidden_address', `${host} resolves to ${address}, a ${verdict.range} address`);
  }
  return addresses[0]!;
}
