import { Ajv, type ErrorObject, type JSONSchemaType, type ValidateFunction } from 'ajv';
import { ApiError, type ErrorCode } from '@hc/errors';

/**
 * Request bodies are checked against a JSON schema (types and shape); the owning service checks the
 * business rules. The first problem becomes the spec's error: the field's own code and `field`.
 */
const ajv = new Ajv({ allErrors: true, strict: true });

export interface BodyValidator<T> {
  (body: unknown): T;
}

export function bodyValidator<T>(schema: JSONSchemaType<T>, fieldCodes: Readonly<Record<string, ErrorCode>>): BodyValidator<T> {
  const validate: ValidateFunction<T> = ajv.compile(schema);
  const fieldOrder = Object.keys(fieldCodes);
  const rank = (error: ErrorObject): number => {
    const index = fieldOrder.indexOf(fieldOf(error, fieldCodes));
    return index === -1 ? fieldOrder.length : index;
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

function toApiError(error: ErrorObject | undefined, fieldCodes: Readonly<Record<string, ErrorCode>>): ApiError {
  if (!error) return new ApiError('invalid_request');
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
