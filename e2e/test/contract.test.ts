// Risk covered: the contract check of the e2e suites (contract.ts) lets through a response that breaks the OpenAPI document, so a field added without the document would pass CI.
import { describe, expect, it } from '@jest/globals';
import { checkContract, ContractViolation } from './contract.ts';

const HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-request-id': 'req_01ARZ3NDEKTSV4RRFFQ69G5FAV' };
const respond = (status: number, body: unknown, headers: Record<string, string> = HEADERS): Response =>
  new Response(JSON.stringify(body), { status, headers });
const page = (data: unknown[]) => ({ data, has_more: false, next_cursor: null });
const error = (code: string) => ({ error: { code, message: 'm' } });

describe('the contract check of end-to-end responses', () => {
  it('accepts a documented response', async () => {
    await expect(checkContract('GET', '/v1/payments?limit=2', respond(200, page([])))).resolves.toBeUndefined();
    await expect(checkContract('GET', '/v1/payments/pay_x', respond(404, error('not_found')))).resolves.toBeUndefined();
  });

  it('refuses a field the document does not list', async () => {
    await expect(checkContract('GET', '/v1/payments', respond(200, { ...page([]), total: 3 }))).rejects.toThrow(ContractViolation);
  });

  it('refuses a wrong type, an undocumented status and an error code the operation cannot answer', async () => {
    await expect(checkContract('GET', '/v1/payments', respond(200, { ...page([]), has_more: 'no' }))).rejects.toThrow(ContractViolation);
    await expect(checkContract('GET', '/v1/payments', respond(409, error('held')))).rejects.toThrow(ContractViolation);
    await expect(checkContract('GET', '/v1/payments', respond(400, error('invalid_amount')))).rejects.toThrow(ContractViolation);
  });

  it('refuses a response without Cache-Control: no-store', async () => {
    const cached = { ...HEADERS, 'cache-control': 'max-age=60' };
    await expect(checkContract('GET', '/v1/payments', respond(200, page([]), cached))).rejects.toThrow(/Cache-Control/);
  });
});
