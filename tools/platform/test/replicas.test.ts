// Risk covered: a second copy of a service (PLATFORM_REPLICAS) that no client can reach, that takes its first
// copy's listener, or whose clients keep calling only the first copy (so a kill of it stops every call until
// the supervisor restarts it; docs/adr/0099).
import { expect, it } from '@jest/globals';
import { planReplicas, replicatedNames } from '../src/replicas.ts';

it('gives the second copy a gRPC port of its own and every other service both copies as a balanced target', async () => {
  const replicas = await planReplicas(replicatedNames({ PLATFORM_REPLICAS: ' checkout, settlement ,' }));
  expect([replicas.has('checkout'), replicas.has('settlement'), replicas.has('gateway')]).toEqual([true, true, false]);
  const checkout = {
    CHECKOUT_GRPC_ADDRESS: '127.0.0.1:50051',
    SETTLEMENT_GRPC_ADDRESS: '127.0.0.1:50052',
    ACCOUNTS_GRPC_ADDRESS: '127.0.0.1:50055',
  };
  const client = replicas.clientEnv('checkout', checkout);
  // Its own listener stays; settlement (replicated) is named twice; accounts (not replicated) once.
  expect(client.CHECKOUT_GRPC_ADDRESS).toBe('127.0.0.1:50051');
  expect(client.SETTLEMENT_GRPC_ADDRESS).toMatch(/^ipv4:127\.0\.0\.1:50052,127\.0\.0\.1:\d+$/);
  expect(client.ACCOUNTS_GRPC_ADDRESS).toBe('127.0.0.1:50055');

  const settlementCopy = replicas.copyEnv('settlement', {
    SETTLEMENT_GRPC_ADDRESS: '127.0.0.1:50052',
    SETTLEMENT_NOTICES_ADDRESS: '127.0.0.1:8090',
  });
  // The copy listens where its clients were told, and on port 0 for what no client is told of.
  expect(client.SETTLEMENT_GRPC_ADDRESS).toBe(`ipv4:127.0.0.1:50052,${settlementCopy.SETTLEMENT_GRPC_ADDRESS}`);
  expect(settlementCopy.SETTLEMENT_GRPC_ADDRESS).not.toBe('127.0.0.1:50052');
  expect(settlementCopy.SETTLEMENT_NOTICES_ADDRESS).toBe('127.0.0.1:0');
  // A name that cannot be listed in an ipv4: target (a DNS name) is left as given.
  expect(replicas.clientEnv('gateway', { SETTLEMENT_GRPC_ADDRESS: 'settlement:50052' }).SETTLEMENT_GRPC_ADDRESS).toBe('settlement:50052');
});
