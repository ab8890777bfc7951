import {
  create,
  fromBinary,
  toBinary,
  type DescMessage,
  type DescService,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf';
import type { ServiceDefinition, UntypedServiceImplementation, handleServerStreamingCall, handleUnaryCall } from '@grpc/grpc-js';
import type { CallContext, PublicCallContext } from './call-context.ts';

/**
 * A handler per RPC of a protobuf-es service descriptor, typed from the generated code: a unary RPC
 * answers once; a server-streaming one yields its messages (an async generator), which the server
 * writes as the client reads them (docs/adr/0057).
 */
export type ServiceHandlers<S extends DescService, C extends CallContext | PublicCallContext = CallContext> = {
  [K in keyof S['method']]: S['method'][K] extends {
    methodKind: 'server_streaming';
    input: infer I extends DescMessage;
    output: infer O extends DescMessage;
  }
    ? (request: MessageShape<I>, ctx: C) => AsyncIterable<MessageInitShape<O>>
    : S['method'][K] extends { input: infer I extends DescMessage; output: infer O extends DescMessage }
      ? (request: MessageShape<I>, ctx: C) => Promise<MessageInitShape<O>>
      : never;
};

/** The encoded bytes as the Buffer grpc-js wants, without copying them (Buffer.from(bytes) would). */
const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The grpc-js service definition for a protobuf-es descriptor: paths and binary (de)serializers. */
export function serviceDefinition(service: DescService): ServiceDefinition {
  const definition: Record<string, ServiceDefinition[string]> = {};
  for (const method of service.methods) {
    if (method.methodKind !== 'unary' && method.methodKind !== 'server_streaming')
      throw new Error(`${service.typeName}.${method.name}: only unary and server-streaming RPCs are supported`);
    definition[method.localName] = {
      path: `/${service.typeName}/${method.name}`,
      requestStream: false,
      responseStream: method.methodKind === 'server_streaming',
      originalName: method.name,
      requestSerialize: (message: MessageShape<DescMessage>) => asBuffer(toBinary(method.input, message)),
      requestDeserialize: (bytes: Buffer) => fromBinary(method.input, bytes),
      responseSerialize: (message: MessageShape<DescMessage>) => asBuffer(toBinary(method.output, message)),
      responseDeserialize: (bytes: Buffer) => fromBinary(method.output, bytes),
    };
  }
  return definition;
}

export type UnaryAdapter = (
  method: DescService['methods'][number],
  handler: (request: MessageShape<DescMessage>, ctx: CallContext & PublicCallContext) => Promise<MessageInitShape<DescMessage>>,
) => handleUnaryCall<MessageShape<DescMessage>, MessageShape<DescMessage>>;

export type StreamAdapter = (
  method: DescService['methods'][number],
  handler: (request: MessageShape<DescMessage>, ctx: CallContext & PublicCallContext) => AsyncIterable<MessageInitShape<DescMessage>>,
) => handleServerStreamingCall<MessageShape<DescMessage>, MessageShape<DescMessage>>;

export function implementation<S extends DescService, C extends CallContext | PublicCallContext>(
  service: S,
  handlers: ServiceHandlers<S, C>,
  adapt: UnaryAdapter,
  adaptStream: StreamAdapter,
): UntypedServiceImplementation {
  const impl: UntypedServiceImplementation = {};
  const byName = handlers as unknown as Record<string, unknown>;
  for (const method of service.methods) {
    const handler = byName[method.localName];
    if (!handler) throw new Error(`${service.typeName}.${method.name} has no handler`);
    impl[method.localName] =
      method.methodKind === 'server_streaming'
        ? adaptStream(method, handler as Parameters<StreamAdapter>[1])
        : adapt(method, handler as Parameters<UnaryAdapter>[1]);
  }
  return impl;
}

export function toResponse(output: DescMessage, init: MessageInitShape<DescMessage>): MessageShape<DescMessage> {
  return create(output, init);
}
