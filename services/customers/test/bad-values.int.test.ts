// Risk covered: a value only PostgreSQL refuses (a NUL byte: SQLSTATE 22021) reaching the customers
// store past the gateway's edge rule and surfacing as a 500 (the attack script's
// GET /v1/customers?email=%00). The shared gRPC mapping must answer it as 400 invalid_request.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { newId } from '@hc/ids';
import { startCustomersEnv, type CustomersEnv } from './customers-env.ts';

const ctx = { accountId: 'acct_bad_values', livemode: false, requestId: 'req_t' };
let env: CustomersEnv;

beforeAll(async () => {
  env = await startCustomersEnv(createLogger('customers-test', { level: 'silent' }), 'bad_values');
});

afterAll(async () => {
  await env.stop();
});

describe("customers' store: a bad value is 400 invalid_request, never a 500", () => {
  it('a NUL in the email filter of ListCustomers (22021) is invalid_request', async () => {
    await expect(env.customers().listCustomers({ limit: 20, email: 'ann\u0000@example.com' }, ctx)).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('a NUL in a customer note (a write, 22021) is invalid_request', async () => {
    await expect(env.customers().setCustomerNote({ id: newId('customer'), note: 'vip\u0000' }, ctx)).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('the same list without the NUL answers', async () => {
    expect((await env.customers().listCustomers({ limit: 20, email: 'ann@example.com' }, ctx)).customers).toEqual([]);
  });
});
