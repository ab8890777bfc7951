import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { openApiDocument } from '@hc/gateway/testing';

/**
 * The contract check of the end-to-end suites (ADR 0021): every response the shared `request` helper
 * receives is validated against the OpenAPI document the gateway serves, its status (documented for
 * the operation), its documented headers (Cache-Control: no-store, X-Request-Id, Retry-After) and its
 * body (closed schemas: an undocumented field fails). Paths outside /v1 and methods the document does
 * not list (answered 404 not_found by the gateway) are checked against the Error schema; OPTIONS,
 * answered by Express with the allowed methods, only for Cache-Control.
 */

type Json = Record<string, unknown>;

const document = openApiDocument();
const DOC_ID = 'openapi.json';
// The document is not itself a JSON Schema; ajv only resolves pointers into it.
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(document, DOC_ID);

const pointer = (...segments: string[]): string => segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
const validators = new Map<string, ValidateFunction>();

function validatorAt(...segments: string[]): ValidateFunction {
  const key = `${DOC_ID}#/${pointer(...segments)}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.getSchema(key);
    if (!validate) throw new Error(`no schema at ${key}`);
    validators.set(key, validate);
  }
  return validate;
}

const paths = document['paths'] as Record<string, Record<string, Json>>;
const templates = Object.keys(paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+').replaceAll('.', '\\.')}$`),
}));

/** The document's path template for a request path (query dropped), or undefined. */
export function operationPath(path: string): string | undefined {
  const bare = path.split('?')[0] ?? '';
  return templates.find(({ pattern }) => pattern.test(bare))?.template;
}

const EVERY_ANSWER: Record<string, Json> = { 'Cache-Control': { schema: { const: 'no-store' }, required: true } };

export class ContractViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractViolation';
  }
}

/** Throws a ContractViolation when the response breaks the document; reads a clone of the body. */
export async function checkContract(method: string, path: string, response: Response): Promise<void> {
  const where = `${method} ${path} → ${response.status}`;
  if (method === 'OPTIONS') {
    // Express answers OPTIONS itself with the allowed methods as text (no CORS headers, test
    // request-handling); not an API operation, so only the headers every answer carries apply.
    checkHeaders(EVERY_ANSWER, response, where);
    return;
  }
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ContractViolation(`${where}: body is not JSON: ${text.slice(0, 200)}`);
  }
  const template = path.startsWith('/v1/') || path === '/v1' ? operationPath(path) : undefined;
  const operation = template ? paths[template]?.[method.toLowerCase()] : undefined;
  if (!operation) {
    if (!path.startsWith('/v1')) return;
    // Not an operation of the document: the gateway answers the unknown route with an error.
    check(validatorAt('components', 'schemas', 'Error'), body, `${where} (no such operation)`);
    checkHeaders(EVERY_ANSWER, response, where);
    return;
  }
  const responses = operation['responses'] as Record<string, Json>;
  const documented = responses[String(response.status)];
  if (!documented) throw new ContractViolation(`${where}: status not documented for ${method} ${template}`);
  checkHeaders((documented['headers'] ?? {}) as Record<string, Json>, response, where);
  check(
    validatorAt(
      'paths',
      template as string,
      method.toLowerCase(),
      'responses',
      String(response.status),
      'content',
      'application/json',
      'schema',
    ),
    body,
    where,
  );
}

function checkHeaders(headers: Record<string, Json>, response: Response, where: string): void {
  for (const [name, header] of Object.entries(headers)) {
    const value = response.headers.get(name);
    if (value === null) {
      if (header['required'] === true) throw new ContractViolation(`${where}: header ${name} missing`);
      continue;
    }
    const validate = ajv.compile(header['schema'] as Json);
    if (!validate(value)) throw new ContractViolation(`${where}: header ${name}: ${value} ${ajv.errorsText(validate.errors)}`);
  }
}

function check(validate: ValidateFunction, body: unknown, where: string): void {
  if (!validate(body)) {
    throw new ContractViolation(
      `${where}: body breaks the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
  }
}
