import { create, toJson, type JsonValue } from '@bufbuild/protobuf';
import { contextStream, type EventRetention, type StreamOptions } from '@hc/events';
import { VERDICT_REACHED_SUBJECT } from '@hc/events/contracts';
import { VerdictReachedSchema } from '@hc/proto/settlement/v1/events';
import { verdictMessage } from '../api/grpc/messages.ts';
import type { Scope } from '../domain/settlement-lock.ts';
import type { Verdict } from '../domain/verdict.ts';

/** The settlement context's stream (`settlement.>`), named by @hc/events' convention. */
export function settlementStream(prefix: string, retention: EventRetention): StreamOptions {
  return contextStream(prefix, 'settlement', retention);
}

/** An outbox row as the store writes it. */
export interface OutboxEvent {
  readonly msgId: string;
  readonly subject: string;
  readonly payload: JsonValue;
}

/**
 * The verdict as the `hc.settlement.v1.VerdictReached` proto message in canonical JSON (docs/adr/0015).
 * The message id is deterministic per verdict, so a re-published row is dropped by JetStream.
 */
export function verdictReachedEvent(scope: Scope, verdict: Verdict): OutboxEvent {
  const message = create(VerdictReachedSchema, { accountId: scope.accountId, livemode: scope.livemode, verdict: verdictMessage(verdict) });
  return { msgId: `verdict.reached:${verdict.id}`, subject: VERDICT_REACHED_SUBJECT, payload: toJson(VerdictReachedSchema, message) };
}
