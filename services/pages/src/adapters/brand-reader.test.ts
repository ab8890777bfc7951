// Risk covered: a sale's page views each asking accounts for the same shop's brand (one call per view),
// or a shared call answering a view that was asked after the call had started (a brand changed in
// between would not show), or one shop's brand dressing another shop's page.
import { describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import type { PublicCallContext, ServiceClient } from '@hc/grpc';
import type { BrandService } from '@hc/proto/accounts/v1';
import { brandReader } from './brand-reader.ts';

type Brands = ServiceClient<typeof BrandService, PublicCallContext>;
const ctx: PublicCallContext = { requestId: 'req_brand' };
const logger = createLogger('brand-reader-test', { level: 'silent' });

/** BrandService as accounts answers it, each call held until released; counts the calls per account. */
function heldBrands() {
  const calls: string[] = [];
  const releases: (() => void)[] = [];
  const client = {
    getAccountBrand: async ({ accountId }: { accountId: string }) => {
      calls.push(accountId);
      await new Promise<void>((resolve) => releases.push(resolve));
      return { brand: { accentColour: accountId === 'acct_a' ? '#0a58ca' : '#8a2be2' } };
    },
  } as unknown as Brands;
  return { client, calls, releaseAll: () => releases.splice(0).forEach((release) => release()) };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the brand reader', () => {
  it("shares one call among one shop's views asked at once, and starts another for a view asked after it began", async () => {
    const brands = heldBrands();
    const read = brandReader(brands.client, logger);
    const first = [read('acct_a', ctx), read('acct_a', ctx), read('acct_a', ctx), read('acct_b', ctx)];
    await turn();
    expect(brands.calls.sort()).toEqual(['acct_a', 'acct_b']);
    const later = read('acct_a', ctx); // asked while the shared call runs: it must not take that answer
    brands.releaseAll();
    const answers = await Promise.all(first);
    expect(answers.map((brand) => brand.accentUrl?.includes('0a58ca'))).toEqual([true, true, true, false]);
    await turn();
    expect(brands.calls.filter((id) => id === 'acct_a')).toHaveLength(2);
    brands.releaseAll();
    expect((await later).accentUrl).toContain('0a58ca');
  });
});
