import type { DescMessage, DescService, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import { create } from '@bufbuild/protobuf';
import { Client, credentials, type ServiceError } from '@grpc/grpc-js';
import { contextToMetadata, type CallContext, type PublicCallContext } from './call-context.ts';
import { fromGrpcError } from './error-mapping.ts';
import { serviceDefinition } from './service.ts';

export interface CallOptions {
  /** Deadline for this call; the default keeps a stuck service from hanging an HTTP request. */
  timeoutMs?: number;
}

/** A typed promise client per RPC; failures arrive as ApiError with the service's code and field. */
export type ServiceClient<S extends DescService, C extends CallContext | PublicCallContext = CallContext> = {
  [K in keyof S['method']]: S['method'][K] extends { input: infer I extends DescMessage; output: infer O extends DescMessage }
    ? (request: MessageInitShape<I>, ctx: C, options?: CallOptions) => Promise<MessageShape<O>>
    : never;
} & { close(): void };

export function createServiceClient<S extends DescService, C extends CallContext | PublicCallContext = CallContext>(
  service: S,
  address: string,
  defaults: { timeoutMs?: number } = {},
): ServiceClient<S, C> {
  const client = new Client(address, credentials.createInsecure());
  const definition = serviceDefinition(service);
  const stub: Record<string, unknown> = { close: () => client.close() };
  for (const method of service.methods) {
    const attrs = definition[method.localName]!;
    stub[method.localName] = (request: MessageInitShape<DescMessage>, ctx: CallContext | PublicCallContext, options: CallOptions = {}) =>
      new Promise((resolve, reject) => {
        const deadline = Date.now() + (options.timeoutMs ?? defaults.timeoutMs ?? 5_000);
        client.makeUnaryRequest(
          attrs.path,
          attrs.requestSerialize,
          attrs.responseDeserialize,
          create(method.input, request),
          contextToMetadata(ctx),
          { deadline },
          (error: ServiceError | null, response?: unknown) => {
            if (error) reject(fromGrpcError(error));
            else resolve(response);
          },
        );
      });
  }
  return stub as ServiceClient<S, C>;
}
