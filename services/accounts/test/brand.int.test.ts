// Risk covered: a shop's brand (docs/adr/0096) that harms its buyers — a logo kept as uploaded (an SVG
// with script, metadata such as GPS, a decompression bomb), an accent colour whose button text buyers
// cannot read (under WCAG AA 4.5:1), one account's brand read or changed by another, a suspended
// merchant changing it — through the real gRPC services and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import {
  createGrpcServer,
  createServiceClient,
  type CallContext,
  type GrpcServer,
  type PublicCallContext,
  type ServiceClient,
} from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { BrandService, MerchantAdminService } from '@hc/proto/accounts/v1';
import { BROKEN_PNG, createTestDatabase, GIF_BYTES, SVG_WITH_SCRIPT, testPng, type TestDatabase } from '@hc/test-kit';
import { brandHandlers } from '../src/api/grpc/brand-handlers.ts';
import { merchantAdminHandlers } from '../src/api/grpc/merchant-admin-handlers.ts';
import { ACCOUNTS_MIGRATIONS_DIR } from '../src/index.ts';
import { BrandStore } from '../src/store/brand-store.ts';
import { MerchantStore, NO_KEY_CACHES } from '../src/store/merchant-store.ts';
import { createAccountsPrisma, type AccountsPrisma } from '../src/store/prisma.ts';
import { createAccount } from '../src/use-cases/create-account.ts';
import { suspendAccount } from '../src/use-cases/suspend-account.ts';

let db: TestDatabase;
let prisma: AccountsPrisma;
let server: GrpcServer;
let admin: ServiceClient<typeof MerchantAdminService>;
let brands: ServiceClient<typeof BrandService, PublicCallContext>;
let store: MerchantStore;
let a: CallContext;
let b: CallContext;
const pub: PublicCallContext = { requestId: 'req_pages' };

beforeAll(async () => {
  db = await createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR);
  prisma = createAccountsPrisma(db.url);
  store = new MerchantStore(prisma, NO_KEY_CACHES);
  const deps = { store, brands: new BrandStore(prisma), now: () => new Date() };
  server = createGrpcServer(createLogger('accounts-brand-test', { level: 'silent' }));
  server.add(MerchantAdminService, merchantAdminHandlers(deps));
  server.addPublic(BrandService, brandHandlers(deps));
  const port = await server.listen('127.0.0.1:0');
  admin = createServiceClient(MerchantAdminService, `127.0.0.1:${port}`, { timeoutMs: 30_000 });
  brands = createServiceClient<typeof BrandService, PublicCallContext>(BrandService, `127.0.0.1:${port}`, { timeoutMs: 30_000 });
  a = { accountId: (await createAccount(deps, { name: 'Shop A' })).id, livemode: false, requestId: 'req_a' };
  b = { accountId: (await createAccount(deps, { name: 'Shop B' })).id, livemode: true, requestId: 'req_b' };
});
afterAll(async () => {
  admin.close();
  brands.close();
  await server.stop(0);
  await prisma.$disconnect();
  await db.drop();
});

describe('the logo: checked by its bytes, re-encoded, served by its hash', () => {
  it('keeps a PNG re-encoded, without its text chunk, fitted inside 512x512, under the sha256 of what is kept', async () => {
    const upload = testPng({ width: 900, height: 300, comment: 'GPS 52.52N 13.40E' });
    const { brand } = await admin.setBrand({ accentColour: '#0A58CA', logo: upload, removeLogo: false }, a);
    expect(brand).toMatchObject({ accentColour: '#0a58ca', logoType: 'image/png' });
    const { image, contentType } = await brands.getLogo({ sha256: brand!.logoSha256! }, pub);
    expect(contentType).toBe('image/png');
    expect(Buffer.from(image).equals(upload)).toBe(false);
    expect(Buffer.from(image).includes(Buffer.from('GPS'))).toBe(false);
    expect(await sharp(image).metadata()).toMatchObject({ format: 'png', width: 512, height: 171 });
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(image).digest('hex')).toBe(brand!.logoSha256);
  });

  it('turns a JPEG into a WebP', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#884400' } })
      .jpeg()
      .toBuffer();
    const { brand } = await admin.setBrand({ accentColour: '', logo: jpeg, removeLogo: false }, b);
    expect(brand).toMatchObject({ logoType: 'image/webp' });
    expect(brand!.accentColour).toBeUndefined();
    expect(await sharp((await brands.getLogo({ sha256: brand!.logoSha256! }, pub)).image).metadata()).toMatchObject({ format: 'webp' });
  });

  it.each([
    ['an SVG with script', SVG_WITH_SCRIPT, 'SVG is not accepted'],
    ['a GIF', GIF_BYTES, 'PNG, JPEG or WebP'],
    ['a PNG signature over garbage', BROKEN_PNG, 'could not be read'],
    ['a file over 512 kB', testPng({ width: 400, height: 400, noise: true }), 'at most 512 kB'],
  ])('refuses %s (invalid_request, field logo) and keeps the logo it had', async (_name, bytes, words) => {
    const before = (await admin.getBrand({}, a)).brand;
    const refusal = admin.setBrand({ accentColour: '#0a58ca', logo: bytes, removeLogo: false }, a);
    await expect(refusal).rejects.toMatchObject({ code: 'invalid_request', field: 'logo' });
    await expect(refusal).rejects.toThrow(words);
    expect((await admin.getBrand({}, a)).brand).toEqual(before);
  });

  it('refuses a decompression bomb: a small PNG that claims 20000x20000 pixels', async () => {
    const bomb = testPng({ width: 1, height: 1, claims: { width: 20000, height: 20000 } });
    expect(bomb.length).toBeLessThan(512 * 1024);
    await expect(admin.setBrand({ accentColour: '', logo: bomb, removeLogo: false }, a)).rejects.toMatchObject({ field: 'logo' });
  });

  it('keeps the logo when none is sent, removes it on request, and an unknown hash is not_found', async () => {
    const kept = (await admin.setBrand({ accentColour: '#000000', removeLogo: false }, a)).brand!;
    expect(kept.logoSha256).toMatch(/^[0-9a-f]{64}$/);
    const removed = (await admin.setBrand({ accentColour: '#000000', removeLogo: true }, a)).brand!;
    expect(removed.logoSha256).toBeUndefined();
    await expect(brands.getLogo({ sha256: kept.logoSha256! }, pub)).rejects.toMatchObject({ code: 'not_found' });
    await expect(brands.getLogo({ sha256: '../etc/passwd' }, pub)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('the accent colour: WCAG AA against white', () => {
  it('refuses #ff7700 naming its ratio and the nearest darker shade that passes, and keeps the colour it had', async () => {
    await admin.setBrand({ accentColour: '#0a58ca', removeLogo: false }, a);
    const refusal = admin.setBrand({ accentColour: '#ff7700', removeLogo: false }, a);
    await expect(refusal).rejects.toMatchObject({ code: 'invalid_request', field: 'accent_colour' });
    await expect(refusal).rejects.toThrow(/contrast of 2\.\d\d:1; .* at least 4\.5:1 .* #[0-9a-f]{6} is the nearest darker shade/);
    expect((await admin.getBrand({}, a)).brand!.accentColour).toBe('#0a58ca');
  });

  it('refuses what is not a hex colour', async () => {
    await expect(admin.setBrand({ accentColour: 'red', removeLogo: false }, a)).rejects.toMatchObject({ field: 'accent_colour' });
  });
});

describe('whose brand', () => {
  it("reads each account's own: the pages' BrandService by account id, the merchant's by call metadata", async () => {
    await admin.setBrand({ accentColour: '#123456', removeLogo: false }, b);
    expect((await brands.getAccountBrand({ accountId: b.accountId }, pub)).brand!.accentColour).toBe('#123456');
    expect((await admin.getBrand({}, a)).brand!.accentColour).not.toBe('#123456');
    expect((await brands.getAccountBrand({ accountId: 'acct_unknown' }, pub)).brand?.accentColour).toBeUndefined();
    expect((await brands.getAccountBrand({ accountId: 'acct_unknown' }, pub)).brand?.logoSha256).toBeUndefined();
  });

  it('a suspended account cannot change its brand, and a suspension that committed first wins', async () => {
    await suspendAccount({ store, now: () => new Date() }, b.accountId);
    await expect(admin.setBrand({ accentColour: '#000000', removeLogo: true }, b)).rejects.toMatchObject({ code: 'suspended' });
    expect((await admin.getBrand({}, b)).brand!.accentColour).toBe('#123456');
    await expect(admin.setBrand({ accentColour: '#000000', removeLogo: false }, { ...a, accountId: 'acct_missing' })).rejects.toMatchObject(
      {
        code: 'not_found',
      },
    );
  });
});
