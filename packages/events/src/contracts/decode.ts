import { fromJson, type DescMessage, type JsonValue, type MessageShape } from '@bufbuild/protobuf';

/**
 * A payload that is not the contract's message: not JSON, not the proto message's JSON form, or
 * missing what every event must carry. The durable consumer dead-letters it (docs/adr/0022); retrying
 * cannot fix it, and applying it would be wrong.
 */
export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

/** One subject's payload: its proto message and what a valid one must hold beyond proto's types. */
export interface EventContract<Desc extends DescMessage> {
  /** The proto message's full name, e.g. `hc.customers.v1.CustomerErased` (logged with a violation). */
  readonly name: string;
  readonly schema: Desc;
  /** The reason a decoded message is unusable, or null. */
  readonly check: (message: MessageShape<Desc>) => string | null;
}

export function eventContract<Desc extends DescMessage>(
  schema: Desc,
  check: (message: MessageShape<Desc>) => string | null,
): EventContract<Desc> {
  return { name: schema.typeName, schema, check };
}

/**
 * The one decode of an event payload, used by every consumer: protobuf's canonical JSON parse
 * (unknown fields ignored, so a producer may add fields first), then the contract's checks. Throws
 * ContractViolation; never returns a half-read event.
 */
export function decodeEvent<Desc extends DescMessage>(contract: EventContract<Desc>, data: unknown): MessageShape<Desc> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ContractViolation(`${contract.name}: payload is not a JSON object`);
  }
  let message: MessageShape<Desc>;
  try {
    message = fromJson(contract.schema, data as JsonValue, { ignoreUnknownFields: true });
  } catch (error) {
    throw new ContractViolation(`${contract.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const problem = contract.check(message);
  if (problem !== null) throw new ContractViolation(`${contract.name}: ${problem}`);
  return message;
}

/**
 * The proto message of an event a producer made, read strictly (a field the contract does not have is
 * an error, so a field added to a producer's event without adding it to proto/ fails its tests) and
 * checked as consumers will check it. Throws Error: a producer bug, so the transaction that would
 * have published it fails instead of publishing something every consumer dead-letters.
 */
export function buildEvent<Desc extends DescMessage>(contract: EventContract<Desc>, event: object): MessageShape<Desc> {
  const message = fromJson(contract.schema, event as JsonValue);
  const problem = contract.check(message);
  if (problem !== null) throw new Error(`${contract.name}: ${problem}`);
  return message;
}

/** A check for the fields every event envelope carries. */
export function envelopeProblem(message: { type: string; accountId: string; occurredAt: bigint }, types: readonly string[]): string | null {
  if (!types.includes(message.type)) return `type "${message.type}" is not ${types.join(' or ')}`;
  // `id` is not required: the Nats-Msg-Id is the key consumers use.
  if (message.accountId === '') return 'accountId is empty';
  if (message.occurredAt <= 0n) return 'occurredAt is not set';
  return null;
}
