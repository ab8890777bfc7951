import type { JsonSchema } from '../presenters/schemas.ts';

const TEXT_RULES: Record<string, string> = {
  strict: 'No C0 control characters and no lone surrogates (docs/api-errors.md, "Text").',
  'line-breaks': 'No C0 control characters except tab, line feed and carriage return, and no lone surrogates.',
};

/**
 * A request schema as the gateway's ajv validates with (JSON Schema draft-07 with ajv's
 * `nullable: true` and the gateway's `text` keyword), rewritten as OpenAPI 3.1 JSON Schema:
 * `nullable` becomes a `null` member of `type`, and the text rule becomes a description, since it
 * is code (validation/text.ts), not a keyword other tools know.
 */
export function toOpenApiSchema(schema: unknown): JsonSchema {
  return convert(schema) as JsonSchema;
}

function convert(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(convert);
  if (typeof schema !== 'object' || schema === null) return schema;
  const result: Record<string, unknown> = {};
  const source = schema as Record<string, unknown>;
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'text') continue;
    // Keys of `properties` are field names, not keywords: their values are schemas.
    result[key] =
      key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, convert(v)])) : convert(value);
  }
  if (source['nullable'] === true && typeof source['type'] === 'string') result['type'] = [source['type'], 'null'];
  const rule = typeof source['text'] === 'string' ? source['text'] : source['type'] === 'string' ? 'strict' : undefined;
  if (rule !== undefined) result['description'] = TEXT_RULES[rule];
  return result;
}
