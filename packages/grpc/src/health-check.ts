import { Client, credentials, Metadata } from '@grpc/grpc-js';
import { ApiError } from '@hc/errors';

/**
 * Asks a service's standard gRPC health endpoint whether it is SERVING. The messages are tiny and
 * fixed (empty request; status field 1 = SERVING), so no generated code is needed for them.
 */
export function checkGrpcHealth(address: string, timeoutMs = 2000): Promise<void> {
  const client = new Client(address, credentials.createInsecure());
  return new Promise<void>((resolve, reject) => {
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.alloc(0),
      new Metadata(),
      { deadline: Date.now() + timeoutMs },
      (error, reply) => {
        client.close();
        if (!error && reply && reply.length === 2 && reply[0] === 0x08 && reply[1] === 0x01) resolve();
        else reject(new ApiError('service_unavailable', `The service at ${address} is not serving.`));
      },
    );
  });
}
