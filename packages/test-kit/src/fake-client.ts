import { create, type DescMessage, type DescService, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';

/**
 * A stand-in for one gRPC service client (the shape of @hc/grpc's ServiceClient), for testing an
 * edge's Express app alone, in-process (issue 31). The methods a test gives answer as written (an
 * answer is built into the real response message, defaults included, as gRPC would deliver it; a
 * thrown ApiError is the service's refusal); any other method rejects with a plain Error, which the
 * edge must answer as a logged 500. Every call is recorded with its request (as the service would
 * decode it) and call context, so a test sees what the edge asked for and in whose name.
 */
export interface RecordedCall {
  readonly method: string;
  readonly request: unknown;
  readonly ctx: unknown;
}

/** What a test writes for each method it needs: request (decoded) and context in, response fields out. */
export type FakeAnswers<S extends DescService, C> = {
  [K in keyof S['method']]?: S['method'][K] extends {
    methodKind: 'server_streaming';
    input: infer I extends DescMessage;
    output: infer O extends DescMessage;
  }
    ? (request: MessageShape<I>, ctx: C) => AsyncIterable<MessageInitShape<O>>
    : S['method'][K] extends { input: infer I extends DescMessage; output: infer O extends DescMessage }
      ? (request: MessageShape<I>, ctx: C) => Promise<MessageInitShape<O>>
      : never;
};

/** The client, shaped as @hc/grpc's ServiceClient<S, C> (structurally: test-kit does not depend on @hc/grpc). */
export type FakeServiceClient<S extends DescService, C> = {
  [K in keyof S['method']]: S['method'][K] extends {
    methodKind: 'server_streaming';
    input: infer I extends DescMessage;
    output: infer O extends DescMessage;
  }
    ? (request: MessageInitShape<I>, ctx: C, options?: { timeoutMs?: number }) => AsyncIterable<MessageShape<O>>
    : S['method'][K] extends { input: infer I extends DescMessage; output: infer O extends DescMessage }
      ? (request: MessageInitShape<I>, ctx: C, options?: { timeoutMs?: number }) => Promise<MessageShape<O>>
      : never;
} & { close(): void };

/** The client and what was asked of it. */
export interface FakeClient<T> {
  readonly client: T;
  readonly calls: RecordedCall[];
  /** The calls of one method, in order. */
  callsOf(method: string): RecordedCall[];
}

/** `C` is the call context the service takes (@hc/grpc's CallContext, or PublicCallContext). */
export function fakeClient<S extends DescService, C>(service: S, answers: FakeAnswers<S, C>): FakeClient<FakeServiceClient<S, C>> {
  const calls: RecordedCall[] = [];
  const stub: Record<string, unknown> = { close: () => undefined };
  for (const method of service.methods) {
    if (method.methodKind === 'server_streaming') {
      // A server-streaming method (@hc/grpc): the answer yields the messages.
      const stream = (answers as Record<string, ((request: unknown, ctx: C) => AsyncIterable<object>) | undefined>)[method.localName];
      stub[method.localName] = (init: MessageInitShape<DescMessage>, ctx: C) =>
        (async function* () {
          const request = create(method.input, init);
          calls.push({ method: method.localName, request, ctx });
          if (!stream) throw new Error(`unexpected call to ${method.localName}`);
          for await (const message of stream(request, ctx)) yield create(method.output, message as MessageInitShape<DescMessage>);
        })();
      continue;
    }
    const answer = (answers as Record<string, ((request: unknown, ctx: C) => Promise<object>) | undefined>)[method.localName];
    stub[method.localName] = async (init: MessageInitShape<DescMessage>, ctx: C) => {
      const request = create(method.input, init);
      calls.push({ method: method.localName, request, ctx });
      if (!answer) throw new Error(`unexpected call to ${method.localName}`);
      return create(method.output, (await answer(request, ctx)) as MessageInitShape<DescMessage>);
    };
  }
  return { client: stub as FakeServiceClient<S, C>, calls, callsOf: (name) => calls.filter((call) => call.method === name) };
}
