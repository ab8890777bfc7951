/**
 * The merchant's webhook receiver (webhook-receiver.ts) as a container on chart:run's network, like any
 * endpoint the services call, published on a host port below the ephemeral range (docs/adr/0110).
 */
import { join } from 'node:path';
import { freePort } from '@hc/test-kit';
import { LABEL, NETWORK } from '../engine.ts';

/** Starts the receiver as `name` from `nodeImage` with the engine's client `run`; answers its host port. */
export async function startReceiverContainer(run: (...args: string[]) => string, name: string, nodeImage: string): Promise<number> {
  const port = await freePort();
  const script = join(import.meta.dirname, 'webhook-receiver.ts');
  run(
    ...['run', '-d', '--label', `${LABEL}=1`, '--network', NETWORK, '--name', name, '-p', `127.0.0.1:${port}:8080`],
    ...['--user', '1000:1000', '-v', `${script}:/receiver/receiver.ts:ro`, nodeImage, 'node', '/receiver/receiver.ts'],
  );
  return port;
}
