import { Ajv, type SchemaValidateFunction, type ErrorObject, type JSONSchemaType, type ValidateFunction } from 'ajv';
import { ApiError, type ErrorCode } from '@hc/errors';
import { textProblem, type TextRule } from './text.ts';

/**
 * Request bodies are checked against a JSON schema (types and shape); the owning service checks the
 * business rules. The first problem becomes the spec's error: the field's own code and `field`.
 */
const ajv = new Ajv({ allErrors: true, strict: true });

/** The keyword that applies the text rule (text.ts) to a string; its value is the TextRule. */
const TEXT_KEYWORD = 'text';

const checkText: SchemaValidateFunction = (rule: TextRule, data: string) => {
  const problem = textProblem(data, rule);
  if (problem === undefined) return true;
  checkText.errors = [{ keyword: TEXT_KEYWORD, message: problem, params: {} }];
  return false;
};
ajv.addKeyword({ keyword: TEXT_KEYWORD, type: 'string', schemaType: 'string', validate: checkText, errors: true });

/**
 * A copy of `schema` in which every string, and every key of a map-like object (metadata), follows the
 * text rule: strict unless the schema names another rule. Done here, once, so no field can forget it.
 */
function withTextRule(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withTextRule);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withTextRule(value)]));
  const types = Array.isArray(copy['type']) ? (copy['type'] as unknown[]) : [copy['type']];
  if (types.includes('string') && !(TEXT_KEYWORD in copy)) copy[TEXT_KEYWORD] = 'strict';
  if (typeof copy['additionalProperties'] === 'object' && !('propertyNames' in copy)) {
    copy['propertyNames'] = { type: 'string', [TEXT_KEYWORD]: 'strict' };
  }
  return copy;
}

export interface BodyValidator<T> {
  (body: unknown): T;
}

export function bodyValidator<T>(schema: JSONSchemaType<T>, fieldCodes: Readonly<Record<string, ErrorCode>>): BodyValidator<T> {
  const validate: ValidateFunction<T> = ajv.compile(withTextRule(schema) as JSONSchemaType<T>);
  const fieldOrder = Object.keys(fieldCodes);
  // A field of the wrong type is reported before a text problem, then fields in the documented order.
  const rank = (error: ErrorObject): number => {
    const index = fieldOrder.indexOf(fieldOf(error, fieldCodes));
    return (isTextError(error) ? fieldOrder.length + 1 : 0) + (index === -1 ? fieldOrder.length : index);
  };
  return (body) => {
    if (validate(body)) return body;
    // All problems are collected; the one reported is the first field in the documented order.
    const first = [...(validate.errors ?? [])].sort((a, b) => rank(a) - rank(b))[0];
    throw toApiError(first, fieldCodes);
  };
}

/**
 * The documented field an error belongs to: the longest path in `fieldCodes` that the error's path
 * starts with. `metadata.color` reports `metadata`; `customer.shipping_address.city` reports itself.
 */
function fieldOf(error: ErrorObject, fieldCodes: Readonly<Record<string, ErrorCode>>): string {
  const path = error.instancePath.split('/').slice(1);
  if (error.keyword === 'required') path.push(String(error.params['missingProperty']));
  for (let depth = path.length; depth > 0; depth -= 1) {
    const field = path.slice(0, depth).join('.');
    if (field in fieldCodes) return field;
  }
  return path[0] ?? '';
}

/** A text-rule error, on a string value or (through propertyNames) on an object's key. */
function isTextError(error: ErrorObject): boolean {
  return error.keyword === TEXT_KEYWORD || isKeyError(error);
}

function isKeyError(error: ErrorObject): boolean {
  return error.keyword === 'propertyNames' || error.schemaPath.includes('/propertyNames/');
}

function toApiError(error: ErrorObject | undefined, fieldCodes: Readonly<Record<string, ErrorCode>>): ApiError {
  if (!error) return new ApiError('invalid_request');
  if (isKeyError(error)) {
    const field = fieldOf(error, fieldCodes);
    return new ApiError(
      fieldCodes[field] ?? 'invalid_request',
      `A key of ${field} contains a control character or a lone surrogate.`,
      field,
    );
  }
  const missing = error.keyword === 'required' ? String(error.params['missingProperty']) : undefined;
  const field = fieldOf(error, fieldCodes);
  const code = fieldCodes[field] ?? 'invalid_request';
  if (missing) return new ApiError(code, `${field} is required.`, field);
  const expected = error.keyword === 'type' ? ` must be ${describeType(error.params['type'])}` : ` ${error.message ?? 'is invalid'}`;
  return new ApiError(code, `${error.instancePath.slice(1).replaceAll('/', '.')}${expected}.`, field);
}

function describeType(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => (t === 'null' ? 'null' : `a${t === 'object' ? 'n' : ''} ${t}`)).join(' or ');
}
