// Risk covered: a server-streaming RPC (the dashboard's exports, docs/adr/0057) that buffers the
// whole answer when the reader is slow, keeps producing after the reader has gone, loses the call
// context, or turns a failure mid-stream into a silently short answer.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiError } from '@hc/errors';
import { createLogger } from '@hc/logging';
import { CheckoutAdminService } from '@hc/proto/checkout/v1';
import { createGrpcServer, createServiceClient, type CallContext, type GrpcServer, type ServiceClient } from '../src/index.ts';

const ctx: CallContext = { accountId: 'acct_s', livemode: true, requestId: 'req_s' };
let server: GrpcServer;
let client: ServiceClient<typeof CheckoutAdminService>;
/** How far the server's generator has got, and whether its finally ran. */
const progress = { produced: 0, finished: false, seen: undefined as CallContext | undefined };
const notFound = async (): Promise<never> => {
  throw new ApiError('not_found');
};

beforeAll(async () => {
  server = createGrpcServer(createLogger('grpc-stream-test', { level: 'silent' }));
  server.add(CheckoutAdminService, {
    async *exportPayments(request, callCtx) {
      progress.seen = callCtx;
      progress.produced = 0;
      progress.finished = false;
      const total = request.reference === 'many' ? 100_000 : 5;
      try {
        for (let i = 0; i < total; i += 1) {
          if (request.reference === 'fail' && i === 3) throw new ApiError('invalid_request', 'bad at row 3', 'status');
          progress.produced += 1;
          // About 1 kB a message, so a stalled reader fills the transport's windows quickly.
          yield { exported: { id: `pay_${i}`, description: 'x'.repeat(1000) } };
        }
      } finally {
        progress.finished = true;
      }
    },
    createPaymentLink: notFound,
    cancelPaymentLink: notFound,
    getOverview: notFound,
    listPaymentLinks: notFound,
    getPaymentLink: notFound,
    createCheckout: notFound,
    getCheckout: notFound,
    listCheckouts: notFound,
    archiveCheckout: notFound,
  });
  const port = await server.listen('127.0.0.1:0');
  client = createServiceClient(CheckoutAdminService, `127.0.0.1:${port}`);
});

afterAll(async () => {
  client.close();
  await server.stop(100);
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('server-streaming RPCs', () => {
  it('deliver every message in order, with the call context', async () => {
    const ids: string[] = [];
    for await (const message of client.exportPayments({}, ctx)) ids.push(message.exported!.id);
    expect(ids).toEqual(['pay_0', 'pay_1', 'pay_2', 'pay_3', 'pay_4']);
    expect(progress.seen).toEqual(ctx);
  });

  it('hold the server back while the reader does not read, and stop it when the reader goes away', async () => {
    const iterator = client.exportPayments({ reference: 'many' }, ctx)[Symbol.asyncIterator]();
    await iterator.next();
    await pause(500);
    // Flow control: only what fits in the windows and buffers was made, not the 100,000.
    const whilePaused = progress.produced;
    expect(whilePaused).toBeLessThan(5_000);
    await iterator.return!();
    await pause(300);
    expect(progress.finished).toBe(true);
    expect(progress.produced).toBeLessThan(whilePaused + 2_000);
  });

  it('end with the service’s error code and field when it fails part-way, after the rows before it', async () => {
    const ids: string[] = [];
    const read = (async () => {
      for await (const message of client.exportPayments({ reference: 'fail' }, ctx)) ids.push(message.exported!.id);
    })();
    await expect(read).rejects.toMatchObject({ code: 'invalid_request', field: 'status' });
    expect(ids).toEqual(['pay_0', 'pay_1', 'pay_2']);
  });
});
