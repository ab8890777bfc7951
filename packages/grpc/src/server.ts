import { once } from 'node:events';
import { type DescService } from '@bufbuild/protobuf';
import { Server, ServerCredentials, status, type Metadata } from '@grpc/grpc-js';
import { metrics } from '@opentelemetry/api';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import { contextFromMetadata, publicContextFromMetadata, type CallContext, type PublicCallContext } from './call-context.ts';
import { logUnexpectedFailure, toGrpcFailure } from './error-mapping.ts';
import { implementation, serviceDefinition, toResponse, type ServiceHandlers, type StreamAdapter, type UnaryAdapter } from './service.ts';
import { ApiError } from '@hc/errors';

type ContextReader = (md: Metadata) => CallContext | PublicCallContext;

export interface GrpcServer {
  readonly server: Server;
  readonly health: HealthImplementation;
  /** Registers a service's handlers; its health status becomes SERVING once the server listens. */
  add<S extends DescService>(service: S, handlers: ServiceHandlers<S>): void;
  /** Registers a service whose calls carry no account context (PublicCallContext: a request id only). */
  addPublic<S extends DescService>(service: S, handlers: ServiceHandlers<S, PublicCallContext>): void;
  /** Binds and starts; returns the port (pass 0 for any free port). */
  listen(address: string): Promise<number>;
  /** Binds and starts; returns the address it answers on (`host:port`, the port filled in when 0 was asked). */
  listenAt(address: string): Promise<string>;
  /** Reports NOT_SERVING, lets calls in flight finish for up to `graceMs`, then stops. */
  stop(graceMs?: number): Promise<void>;
}

// Server-side duration of every RPC (docs/operations.md); a no-op unless @hc/telemetry started the SDK.
// The gRPC instrumentation makes spans but no metrics.
const rpcDuration = metrics.getMeter('hc-grpc').createHistogram('rpc.server.call.duration', {
  description: 'Duration of gRPC calls handled by this server',
  unit: 's',
});

/**
 * How long a client connection lives before the server asks the client to reconnect (HTTP/2 GOAWAY;
 * calls in flight finish, grpc-js adds ±10 % jitter). A client resolves its target again only when a
 * connection is lost, so without an age a pod added by a scale-out would get no calls from the
 * clients already running; with it each client learns new pods within about a minute, for a
 * reconnect a minute per client and pod (docs/adr/0092).
 */
const MAX_CONNECTION_AGE_MS = 60_000;

export function createGrpcServer(logger: Logger, options: { maxConnectionAgeMs?: number } = {}): GrpcServer {
  const server = new Server({ 'grpc.max_connection_age_ms': options.maxConnectionAgeMs ?? MAX_CONNECTION_AGE_MS });
  const health = new HealthImplementation({ '': 'NOT_SERVING' });
  health.addToServer(server);
  const names: string[] = [];

  return {
    server,
    health,
    add(service, handlers) {
      server.addService(
        serviceDefinition(service),
        implementation(service, handlers, unaryAdapter(logger, contextFromMetadata), serverStreamAdapter(logger, contextFromMetadata)),
      );
      names.push(service.typeName);
    },
    addPublic(service, handlers) {
      server.addService(
        serviceDefinition(service),
        implementation(
          service,
          handlers,
          unaryAdapter(logger, publicContextFromMetadata),
          serverStreamAdapter(logger, publicContextFromMetadata),
        ),
      );
      names.push(service.typeName);
    },
    listen(address) {
      return new Promise((resolve, reject) => {
        server.bindAsync(address, ServerCredentials.createInsecure(), (error, port) => {
          if (error) return reject(error);
          for (const name of ['', ...names]) health.setStatus(name, 'SERVING');
          resolve(port);
        });
      });
    },
    async listenAt(address) {
      const port = await this.listen(address);
      return `${address.slice(0, address.lastIndexOf(':'))}:${port}`;
    },
    stop(graceMs = 10_000) {
      for (const name of ['', ...names]) health.setStatus(name, 'NOT_SERVING');
      return new Promise((resolve) => {
        const timer = setTimeout(() => server.forceShutdown(), graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/** A unary RPC: reads the call's context, runs the handler, logs and measures the outcome. */
function unaryAdapter(logger: Logger, readContext: ContextReader): UnaryAdapter {
  return (method, handler) => (call, callback) => {
    const started = performance.now();
    const measure = (code: status): void =>
      rpcDuration.record((performance.now() - started) / 1000, {
        'rpc.system': 'grpc',
        'rpc.service': method.parent.typeName,
        'rpc.method': method.name,
        'rpc.grpc.status_code': code,
      });
    let ctx;
    try {
      ctx = readContext(call.metadata) as CallContext & PublicCallContext;
    } catch (error) {
      const failure = toGrpcFailure(error);
      measure(failure.code);
      callback(failure);
      return;
    }
    handler(call.request, ctx).then(
      (init) => {
        logger.debug({ rpc: method.name, requestId: ctx.requestId, ms: Math.round(performance.now() - started) }, 'rpc ok');
        measure(status.OK);
        callback(null, toResponse(method.output, init));
      },
      (error: unknown) => {
        logUnexpectedFailure(logger, error, { rpc: method.name, requestId: ctx.requestId }, 'rpc failed with an unexpected error');
        const failure = toGrpcFailure(error);
        measure(failure.code);
        callback(failure);
      },
    );
  };
}

/**
 * A server-streaming RPC: each message the handler yields is written as the client takes it (a
 * full buffer waits for 'drain'), so a large export holds only what is in flight. A client that
 * goes away ends the handler's generator (its finally blocks run); a failure mid-stream ends the
 * call with the error's code and field, as a unary call's would.
 */
function serverStreamAdapter(logger: Logger, readContext: ContextReader): StreamAdapter {
  return (method, handler) => (call) => {
    const started = performance.now();
    let ctx;
    try {
      ctx = readContext(call.metadata) as CallContext & PublicCallContext;
    } catch (error) {
      call.emit('error', toGrpcFailure(error));
      return;
    }
    const requestId = ctx.requestId;
    const gone = new Promise<void>((resolve) => call.once('cancelled', () => resolve()));
    void (async () => {
      try {
        for await (const init of handler(call.request, ctx)) {
          if (call.cancelled) return;
          if (!call.write(toResponse(method.output, init))) await Promise.race([once(call, 'drain'), gone]);
        }
        if (!call.cancelled) call.end();
        logger.debug({ rpc: method.name, requestId, ms: Math.round(performance.now() - started) }, 'rpc stream ok');
      } catch (error) {
        if (!(error instanceof ApiError)) logger.error({ rpc: method.name, requestId, err: error }, 'rpc stream failed');
        if (!call.cancelled) call.emit('error', toGrpcFailure(error));
      }
    })();
  };
}

export { status };
