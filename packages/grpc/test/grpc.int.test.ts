// Risk covered: the gRPC plumbing losing the caller's account/mode, an error's code or field, or a
// deadline, between the gateway and a service; and health checks not reflecting the server's state.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { credentials, Client, Metadata, type ServiceError } from '@grpc/grpc-js';
import { ApiError } from '@hc/errors';
import { createLogger } from '@hc/logging';
import { CheckoutService, HostedCheckoutService } from '@hc/proto/checkout/v1';
import {
  createGrpcServer,
  createServiceClient,
  type CallContext,
  type GrpcServer,
  type PublicCallContext,
  type ServiceClient,
} from '../src/index.ts';

const ctx: CallContext = { accountId: 'acct_1', livemode: false, requestId: 'req_1' };
let server: GrpcServer;
let client: ServiceClient<typeof CheckoutService>;
let address: string;
const seen: CallContext[] = [];
const seenPublic: PublicCallContext[] = [];
const notFound = async (): Promise<never> => {
  throw new ApiError('not_found');
};

beforeAll(async () => {
  server = createGrpcServer(createLogger('grpc-test', { level: 'silent' }));
  server.add(CheckoutService, {
    async createCheckoutSession(request, callCtx) {
      seen.push(callCtx);
      if (request.amount === 'bad') throw new ApiError('invalid_amount', 'amount is bad', 'amount');
      if (request.amount === 'boom') throw new Error('database exploded with secret details');
      // node-postgres's error for a connection the server (or HAProxy, at a failover) cut mid-query.
      if (request.amount === 'failover') throw new Error('Connection terminated unexpectedly');
      if (request.amount === 'slow') await new Promise((resolve) => setTimeout(resolve, 500));
      return {
        payment: {
          id: 'pay_x',
          amount: request.amount,
          status: 'open',
          mode: callCtx.livemode ? 'live' : 'test',
          createdAt: 1_700_000_000_000n,
        },
      };
    },
    async getCheckoutSession() {
      throw new ApiError('not_found');
    },
    // The remaining RPCs of the contract play no part here.
    startCheckoutSession: notFound,
    listPayments: notFound,
    simulatePayment: notFound,
    getPaymentTimeline: notFound,
    markProviderReached: notFound,
    acceptHeldPayment: notFound,
    getEventsPosition: notFound,
    createCheckoutSessions: notFound,
    getCheckoutSessions: notFound,
    listPaymentPages: notFound,
  });
  server.addPublic(HostedCheckoutService, {
    async getHostedSession(request, callCtx) {
      seenPublic.push(callCtx);
      return { session: { id: request.id } };
    },
    startHostedSession: notFound,
    reachHostedProvider: notFound,
    simulateHostedPayment: notFound,
    payCheckout: notFound,
    getHostedCheckout: notFound,
    getHostedSessions: notFound,
  });
  // listenAt answers the address with the free port it was given filled in.
  address = await server.listenAt('127.0.0.1:0');
  client = createServiceClient(CheckoutService, address);
});

afterAll(async () => {
  client.close();
  await server.stop(100);
});

describe('gRPC services from protobuf-es descriptors', () => {
  it('round-trips messages and passes the call context', async () => {
    const res = await client.createCheckoutSession({ amount: '10.00', currency: 'USD', description: 'x' }, { ...ctx, livemode: true });
    expect(res.payment?.id).toBe('pay_x');
    expect(res.payment?.status).toBe('open');
    expect(res.payment?.mode).toBe('live');
    expect(res.payment?.createdAt).toBe(1_700_000_000_000n);
    expect(seen.at(-1)).toEqual({ ...ctx, livemode: true });
  });

  it('carries an ApiError code and field to the caller', async () => {
    const failure = client.createCheckoutSession({ amount: 'bad' }, ctx);
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: 'invalid_amount', field: 'amount', message: 'amount is bad' });
    await expect(client.getCheckoutSession({ id: 'pay_y' }, ctx)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('turns an unexpected failure into internal_error without leaking its text', async () => {
    const failure = client.createCheckoutSession({ amount: 'boom' }, ctx);
    await expect(failure).rejects.toMatchObject({ code: 'internal_error' });
    await expect(failure).rejects.not.toMatchObject({ message: expect.stringContaining('secret') });
  });

  it('turns a database briefly away (a connection lost at a failover) into service_unavailable, which clients retry', async () => {
    await expect(client.createCheckoutSession({ amount: 'failover' }, ctx)).rejects.toMatchObject({ code: 'service_unavailable' });
  });

  it('enforces the deadline', async () => {
    await expect(client.createCheckoutSession({ amount: 'slow' }, ctx, { timeoutMs: 50 })).rejects.toMatchObject({
      code: 'service_unavailable',
    });
  });

  it('refuses a call without account context', async () => {
    const raw = new Client(address, credentials.createInsecure());
    const error = await new Promise<ServiceError>((resolve) => {
      raw.makeUnaryRequest(
        '/hc.checkout.v1.CheckoutService/GetCheckoutSession',
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.alloc(0),
        new Metadata(),
        (err) => resolve(err!),
      );
    });
    raw.close();
    expect(error.metadata.get('hc-error-code')).toEqual(['invalid_api_key']);
  });

  it('answers the standard health check with SERVING', async () => {
    const raw = new Client(address, credentials.createInsecure());
    const reply = await new Promise<Buffer>((resolve, reject) => {
      raw.makeUnaryRequest(
        '/grpc.health.v1.Health/Check',
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.alloc(0),
        (err, value) => (err ? reject(err) : resolve(value!)),
      );
    });
    raw.close();
    // HealthCheckResponse { status = 1 (SERVING) } encodes as field 1, varint 1.
    expect([...reply]).toEqual([0x08, 0x01]);
  });
});

describe('public services (addPublic)', () => {
  it('take a call without account context and never see one, even when the caller sends it', async () => {
    const anonymous = createServiceClient<typeof HostedCheckoutService, PublicCallContext>(HostedCheckoutService, address);
    const merchantClient = createServiceClient<typeof HostedCheckoutService>(HostedCheckoutService, address);
    try {
      await expect(anonymous.getHostedSession({ id: 'pay_1' }, { requestId: 'req_b' })).resolves.toMatchObject({
        session: { id: 'pay_1' },
      });
      await merchantClient.getHostedSession({ id: 'pay_2' }, ctx);
      expect(seenPublic).toEqual([{ requestId: 'req_b' }, { requestId: ctx.requestId }]);
    } finally {
      anonymous.close();
      merchantClient.close();
    }
  });

  it('leave account-scoped services refusing a call without context', async () => {
    const anonymous = createServiceClient<typeof CheckoutService, PublicCallContext>(CheckoutService, address);
    try {
      await expect(anonymous.getCheckoutSession({ id: 'pay_1' }, { requestId: 'req_b' })).rejects.toMatchObject({
        code: 'invalid_api_key',
      });
    } finally {
      anonymous.close();
    }
  });
});
