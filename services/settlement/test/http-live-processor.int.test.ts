// Risk covered: a Live start that hangs or half-happens when the processor is down, slow or confused —
// over real HTTP, the deposit-address call must end as network_unavailable within its deadline.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpLiveProcessor } from '../src/adapters/http-live-processor.ts';

const request = { paymentId: 'pay_x', feeBps: 150 };
let silent: Server;
let broken: Server;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

let silentUrl: string;
let brokenUrl: string;
beforeAll(async () => {
  silent = createServer(() => {}); // accepts, never answers
  broken = createServer((_req, res) => res.writeHead(500).end('{"address":"0x1111111111111111111111111111111111111111"}'));
  [silentUrl, brokenUrl] = await Promise.all([listen(silent), listen(broken)]);
});
afterAll(async () => {
  silent.closeAllConnections();
  await Promise.all([new Promise((r) => silent.close(r)), new Promise((r) => broken.close(r))]);
});

describe('the processor not answering at start', () => {
  it('is network_unavailable when nothing listens', async () => {
    const closed = createServer();
    const url = await listen(closed);
    await new Promise((r) => closed.close(r));
    await expect(new HttpLiveProcessor(url, 1000).allocateDepositAddress(request)).rejects.toMatchObject({ code: 'network_unavailable' });
  });

  it('is network_unavailable past the deadline', async () => {
    const started = Date.now();
    await expect(new HttpLiveProcessor(silentUrl, 200).allocateDepositAddress(request)).rejects.toMatchObject({
      code: 'network_unavailable',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('is network_unavailable when it answers with an error, even one carrying an address', async () => {
    await expect(new HttpLiveProcessor(brokenUrl, 1000).allocateDepositAddress(request)).rejects.toMatchObject({
      code: 'network_unavailable',
    });
  });
});
