import type { CallContext, PublicCallContext, ServiceHandlers } from '@hc/grpc';
import type { BrandService } from '@hc/proto/accounts/v1';
import type { Brand } from '../../domain/brand.ts';
import { getBrand, getLogo } from '../../use-cases/read-brand.ts';
import { setBrand, type BrandDependencies } from '../../use-cases/set-brand.ts';

/** hc.accounts.v1.Brand of a brand. */
export function brandMessage(brand: Brand) {
  return {
    accentColour: brand.accentColour ?? undefined,
    logoSha256: brand.logo?.sha256,
    logoType: brand.logo?.contentType,
  };
}

/** The merchant's own brand verbs (MerchantAdminService): the account from call metadata only. */
export function merchantBrandHandlers(deps: BrandDependencies) {
  return {
    async getBrand(_request: object, ctx: CallContext) {
      return { brand: brandMessage(await getBrand(deps, ctx.accountId)) };
    },
    async setBrand(request: { accentColour: string; logo?: Uint8Array; removeLogo: boolean }, ctx: CallContext) {
      const brand = await setBrand(deps, ctx.accountId, {
        accentColour: request.accentColour,
        logo: request.logo,
        removeLogo: request.removeLogo,
      });
      return { brand: brandMessage(brand) };
    },
  };
}

/** What the buyer pages and the mails read (BrandService, public call context, internal listener). */
export function brandHandlers(deps: BrandDependencies): ServiceHandlers<typeof BrandService, PublicCallContext> {
  return {
    async getAccountBrand(request) {
      return { brand: brandMessage(await getBrand(deps, request.accountId)) };
    },
    async getLogo(request) {
      const logo = await getLogo(deps, request.sha256);
      return { image: logo.image, contentType: logo.contentType };
    },
  };
}
