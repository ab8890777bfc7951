import { Ajv, type JSONSchemaType } from 'ajv';
import addFormatsModule from 'ajv-formats';

export type { JSONSchemaType };

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads configuration from environment variables, once, at boot. Each key of the schema is an
 * environment variable name; values are coerced to the schema's types and defaults fill gaps, so
 * a fresh machine runs with no variables set. Anything invalid stops the process with every problem
 * listed, instead of failing later on first use.
 */
export function loadConfig<T>(schema: JSONSchemaType<T>, env: NodeJS.ProcessEnv = process.env): T {
  const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const properties = Object.keys((schema as { properties?: object }).properties ?? {});
  const candidate: Record<string, unknown> = {};
  for (const name of properties) {
    const value = env[name];
    if (value !== undefined && value !== '') candidate[name] = value;
  }
  if (!validate(candidate)) {
    const problems = (validate.errors ?? []).map(
      (e) => `${e.instancePath.slice(1) || e.params['missingProperty'] || '(root)'} ${e.message ?? 'is invalid'}`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return candidate as T;
}
