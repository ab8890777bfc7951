import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig, type JSONSchemaType } from './index.ts';

interface Sample {
  PORT: number;
  DATABASE_URL: string;
  FEATURE: boolean;
}

const schema: JSONSchemaType<Sample> = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 8080 },
    DATABASE_URL: { type: 'string', format: 'uri', default: 'postgresql://postgres@127.0.0.1:5432/x' },
    FEATURE: { type: 'boolean', default: false },
  },
  required: ['PORT', 'DATABASE_URL', 'FEATURE'],
  additionalProperties: false,
};

describe('loadConfig', () => {
  it('fills defaults on a machine with nothing set', () => {
    expect(loadConfig(schema, {})).toEqual({ PORT: 8080, DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/x', FEATURE: false });
  });

  it('coerces variables to the schema types and ignores unrelated ones', () => {
    expect(loadConfig(schema, { PORT: '9000', FEATURE: 'true', HOME: '/root' })).toMatchObject({ PORT: 9000, FEATURE: true });
  });

  it('fails at once, naming every bad variable', () => {
    expect(() => loadConfig(schema, { PORT: 'eighty', DATABASE_URL: 'not a url' })).toThrow(ConfigError);
    expect(() => loadConfig(schema, { PORT: 'eighty', DATABASE_URL: 'not a url' })).toThrow(/PORT.*DATABASE_URL/);
  });
});
