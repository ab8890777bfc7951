import type { DescMessage, DescService, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import { create } from '@bufbuild/protobuf';
import { Client, credentials, type ChannelOptions, type ServiceError } from '@grpc/grpc-js';
import { contextToMetadata, type CallContext, type PublicCallContext } from './call-context.ts';
import { fromGrpcError } from './error-mapping.ts';
import { serviceDefinition } from './service.ts';

export interface CallOptions {
  /** Deadline for this call; the default keeps a stuck service from hanging an HTTP request. */
  timeoutMs?: number;
}

/**
 * A typed client per RPC: a promise for a unary one, an async iterable of messages for a
 * server-streaming one (read as the caller consumes it: gRPC flow control holds the server back);
 * failures arrive as ApiError with the service's code and field.
 */
export type ServiceClient<S extends DescService, C extends CallContext | PublicCallContext = CallContext> = {
  [K in keyof S['method']]: S['method'][K] extends {
    methodKind: 'server_streaming';
    input: infer I extends DescMessage;
    output: infer O extends DescMessage;
  }
    ? (request: MessageInitShape<I>, ctx: C, options?: CallOptions) => AsyncIterable<MessageShape<O>>
    : S['method'][K] extends { input: infer I extends DescMessage; output: infer O extends DescMessage }
      ? (request: MessageInitShape<I>, ctx: C, options?: CallOptions) => Promise<MessageShape<O>>
      : never;
} & { close(): void };

/** A stream's deadline unless the call says otherwise: long enough for a large export. */
const STREAM_TIMEOUT_MS = 15 * 60 * 1000;
/**
 * A unary call's deadline when neither the call nor the client names one. Every service passes its
 * own from its config; this one serves tests and tools. It was 5 s, which a loaded CI machine once
 * exceeded on a call that normally answers in milliseconds (a test's whole process stalled).
 */
const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * The deadline of WebhooksService.CheckEndpoint, which waits for a merchant's server: two rounds of
 * deliveries, each answer bounded by at most 10 s (docs/adr/0087), and room for the calls around them.
 */
export const ENDPOINT_CHECK_DEADLINE_MS = 30_000;

/**
 * A client whose target may name several servers (namesManyAddresses, below) spreads its calls over
 * all the addresses the target resolves to (docs/adr/0092). grpc-js defaults to `pick_first`: one
 * connection to the first address, so behind a headless Service every call of a client would still go
 * to one pod. `round_robin` keeps a connection to each address and turns per call. The DNS resolver
 * (`dns:///name:port`) answers all of a name's A records; it looks again whenever a connection is lost (a pod gone, a rolling upgrade),
 * at most once a second here instead of grpc-js's 30 s, so that a Deployment replacing its pods one
 * after another is followed before the last known pod goes. Service configs from DNS TXT records are
 * not asked for: the configuration is ours, and the lookup is one more query per resolution.
 */
const BALANCED_CHANNEL_OPTIONS: ChannelOptions = {
  'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
  'grpc.service_config_disable_resolution': 1,
  'grpc.dns_min_time_between_resolutions_ms': 1_000,
};

/**
 * The client of a one-shot tool (the operator CLI, the platform runner): every call waits for the
 * channel within `timeoutMs` (createServiceClient's waitForReady), since a fresh process has no caller to retry for it.
 */
export function createToolClient<S extends DescService, C extends CallContext | PublicCallContext = CallContext>(
  service: S,
  address: string,
  timeoutMs: number,
): ServiceClient<S, C> {
  return createServiceClient<S, C>(service, address, { timeoutMs, waitForReady: true });
}

/**
 * A target with a resolver scheme (`dns:///name:port` of a headless Service, `ipv4:a,b`, or any other) may name
 * several servers, and is balanced. A plain `host:port` (the local platform, the tests) names one:
 * `pick_first` there queues a call while it reconnects to a restarted server, where `round_robin`
 * would fail it at once with UNAVAILABLE until its reconnect backoff runs out.
 */
function namesManyAddresses(address: string): boolean {
  return !/^[^:/]+:\d+$/.test(address);
}

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && 'code' in error && 'metadata' in error;
}

export function createServiceClient<S extends DescService, C extends CallContext | PublicCallContext = CallContext>(
  service: S,
  address: string,
  defaults: {
    timeoutMs?: number;
    channelOptions?: ChannelOptions;
    /**
     * Calls wait, within their deadline, for the channel to connect instead of failing at once while
     * the name does not resolve or the server is not there yet. For one-shot tools (the operator CLI):
     * a fresh process has one chance, and a DNS server restarting for a second (podman's aardvark-dns
     * when a container joins, deploy/helm/chart-run/engine.ts) refused its first call. Services keep
     * the fail-fast default: their callers retry and a request must not queue behind a dead server.
     */
    waitForReady?: boolean;
  } = {},
): ServiceClient<S, C> {
  const balanced = namesManyAddresses(address) ? BALANCED_CHANNEL_OPTIONS : {};
  const client = new Client(address, credentials.createInsecure(), { ...balanced, ...defaults.channelOptions });
  const definition = serviceDefinition(service);
  const stub: Record<string, unknown> = { close: () => client.close() };
  for (const method of service.methods) {
    const attrs = definition[method.localName]!;
    if (method.methodKind === 'server_streaming') {
      stub[method.localName] = (request: MessageInitShape<DescMessage>, ctx: CallContext | PublicCallContext, options: CallOptions = {}) =>
        (async function* () {
          const deadline = Date.now() + (options.timeoutMs ?? STREAM_TIMEOUT_MS);
          const stream = client.makeServerStreamRequest(
            attrs.path,
            attrs.requestSerialize,
            attrs.responseDeserialize,
            create(method.input, request),
            contextToMetadata(ctx),
            { deadline },
          );
          try {
            for await (const message of stream) yield message;
          } catch (error) {
            throw isServiceError(error) ? fromGrpcError(error) : error;
          } finally {
            // The caller stopped reading (or the stream ended): the server stops producing.
            stream.cancel();
          }
        })();
      continue;
    }
    stub[method.localName] = (request: MessageInitShape<DescMessage>, ctx: CallContext | PublicCallContext, options: CallOptions = {}) =>
      new Promise((resolve, reject) => {
        const deadline = Date.now() + (options.timeoutMs ?? defaults.timeoutMs ?? DEFAULT_TIMEOUT_MS);
        const message = create(method.input, request);
        const metadata = contextToMetadata(ctx);
        // grpc-js reads wait-for-ready from the metadata's options, not from the call options.
        if (defaults.waitForReady) metadata.setOptions({ waitForReady: true });
        // grpc-js captures a stack trace on every call (`new Error()`) for the error it may report; the
        // error is mapped to an ApiError below and dropped, so that stack is never read. Not capturing
        // it saved about 15 % of the client's CPU per call (tools/bench/src/grpc-call-cost.ts).
        const stackTraceLimit = Error.stackTraceLimit;
        Error.stackTraceLimit = 0;
        try {
          client.makeUnaryRequest(
            attrs.path,
            attrs.requestSerialize,
            attrs.responseDeserialize,
            message,
            metadata,
            { deadline },
            (error: ServiceError | null, response?: unknown) => {
              if (error) reject(fromGrpcError(error));
              else resolve(response);
            },
          );
        } finally {
          Error.stackTraceLimit = stackTraceLimit;
        }
      });
  }
  return stub as ServiceClient<S, C>;
}
