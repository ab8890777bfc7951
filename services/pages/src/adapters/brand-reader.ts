import { sharedCalls } from '@hc/batching';
import type { PublicCallContext, ServiceClient } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import type { BrandService } from '@hc/proto/accounts/v1';
import { ApiError } from '@hc/errors';
import { accentStylePath, logoPath } from '@hc/web';

/** What a buyer page shows of the shop's brand: its logo's and its accent stylesheet's paths. */
export interface PageBrand {
  readonly logoUrl: string | null;
  readonly accentUrl: string | null;
}

export const NO_BRAND: PageBrand = { logoUrl: null, accentUrl: null };

/** The shop's brand for a page of this account, read from accounts at each view (docs/adr/0096). */
export type BrandReader = (accountId: string, ctx: PublicCallContext) => Promise<PageBrand>;

/** A logo by its sha256, or null when no account has it now. */
export type LogoReader = (sha256: string, ctx: PublicCallContext) => Promise<{ image: Uint8Array; contentType: string } | null>;

/** Short: the brand only dresses the page, never worth holding the page for. */
export const BRAND_TIMEOUT_MS = 1_000;

/**
 * Asks the accounts context (BrandService), which owns the brand. Unconfigured or unreachable: the
 * platform's look, so a page never fails or waits long for its decoration. The views of one shop's
 * pages asked at once share one call, started after each of them (docs/adr/0097, as the receipt
 * policy): a sale's buyers cost accounts one brand read per round trip, not one each, and a brand
 * changed before a view is still the one it shows.
 */
export function brandReader(client: ServiceClient<typeof BrandService, PublicCallContext> | undefined, logger: Logger): BrandReader {
  if (!client) return async () => NO_BRAND;
  const brandOf = sharedCalls(
    ({ accountId, ctx }: { accountId: string; ctx: PublicCallContext }) => client.getAccountBrand({ accountId }, ctx),
    ({ accountId }) => accountId,
  );
  return async (accountId, ctx) => {
    if (accountId === '') return NO_BRAND;
    try {
      const { brand } = await brandOf({ accountId, ctx });
      return {
        logoUrl: brand?.logoSha256 && brand.logoType ? logoPath(brand.logoSha256, brand.logoType) : null,
        accentUrl: brand?.accentColour ? accentStylePath(brand.accentColour) : null,
      };
    } catch (error) {
      logger.warn({ err: error, requestId: ctx.requestId }, 'brand unknown (accounts unreachable); the page shows the platform look');
      return NO_BRAND;
    }
  };
}

/** The logo's bytes from accounts; null for a logo no account has (a 404 page). Other errors go on. */
export function logoReader(client: ServiceClient<typeof BrandService, PublicCallContext> | undefined): LogoReader {
  return async (sha256, ctx) => {
    if (!client) return null;
    try {
      return await client.getLogo({ sha256 }, ctx);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') return null;
      throw error;
    }
  };
}
