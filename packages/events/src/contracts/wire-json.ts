import {
  toJson,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type Message,
  type MessageShape,
} from '@bufbuild/protobuf';
import { reflect, type ReflectMessage } from '@bufbuild/protobuf/reflect';
import { buildEvent, type EventContract } from './decode.ts';

/**
 * The JSON an event is written in (docs/adr/0022): the proto message's JSON (field JSON names, in
 * field-number order), with every field present (an unset optional or message field is `null`) and
 * 64-bit integers as JSON numbers (milliseconds are far below 2^53). It is the payload shape from
 * before the contracts, byte for byte, so messages in streams and outboxes at upgrade and after are
 * the same, and protobuf's standard `fromJson` reads both (it takes null as unset and numbers for int64).
 */
export function encodeEvent<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): JsonObject {
  return writeMessage(reflect(schema, message));
}

/** The outbox payload of a producer's event: its proto message (buildEvent) in the events' JSON (encodeEvent). */
export function eventPayload<Desc extends DescMessage>(contract: EventContract<Desc>, event: object): JsonObject {
  return encodeEvent(contract.schema, buildEvent(contract, event));
}

function writeMessage(message: ReflectMessage): JsonObject {
  // Well-known types (Struct) have their own JSON form.
  if (message.desc.typeName.startsWith('google.protobuf.')) return toJson(message.desc, message.message as Message) as JsonObject;
  const out: JsonObject = {};
  for (const field of message.fields) out[field.jsonName] = writeField(message, field);
  return out;
}

function writeField(message: ReflectMessage, field: DescField): JsonValue {
  switch (field.fieldKind) {
    case 'scalar': {
      if (field.presence !== IMPLICIT && !message.isSet(field)) return null;
      return scalar(message.get(field));
    }
    case 'enum':
      if (field.presence !== IMPLICIT && !message.isSet(field)) return null;
      return field.enum.values.find((v) => v.number === message.get(field))?.name ?? (message.get(field) as number);
    case 'message':
      return message.isSet(field) ? writeMessage(message.get(field)) : null;
    case 'list': {
      const list = message.get(field);
      const items: JsonValue[] = [];
      for (const item of list) items.push(field.listKind === 'message' ? writeMessage(item as ReflectMessage) : scalar(item));
      return items;
    }
    case 'map': {
      const map = message.get(field);
      const entries: JsonObject = {};
      for (const [key, value] of map)
        entries[String(key)] = field.mapKind === 'message' ? writeMessage(value as ReflectMessage) : scalar(value);
      return entries;
    }
  }
}

// FeatureSet_FieldPresence.IMPLICIT: a proto3 field without `optional`.
const IMPLICIT = 2;

function scalar(value: unknown): JsonValue {
  if (typeof value === 'bigint') {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) return value.toString();
    return Number(value);
  }
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value as JsonValue;
}
