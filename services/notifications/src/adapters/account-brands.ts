import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { newId } from '@hc/ids';
import type { Logger } from '@hc/logging';
import { BrandService } from '@hc/proto/accounts/v1';
import { logoPath } from '@hc/web/brand-paths';
import { NO_MAIL_BRAND, type MailBrand } from '../domain/payment-mails.ts';

/** The shop's brand for its buyers' mails, from the accounts context (docs/adr/0096). */
export interface AccountBrands {
  brandOf(accountId: string): Promise<MailBrand>;
  close(): void;
}

/** Asked before the receipt's transaction; a slow accounts service only costs the mail its brand. */
const ASK_TIMEOUT_MS = 1000;

/**
 * Asks accounts' BrandService; the logo becomes an absolute address on the pages (PUBLIC_BASE_URL),
 * which mail clients load. Unconfigured or unreachable: the platform's plain receipt, never a lost one.
 */
export function accountBrands(address: string | undefined, publicBaseUrl: string, logger: Logger): AccountBrands {
  if (!address) return { brandOf: async () => NO_MAIL_BRAND, close: () => undefined };
  const client = createServiceClient<typeof BrandService, PublicCallContext>(BrandService, address, { timeoutMs: ASK_TIMEOUT_MS });
  const base = publicBaseUrl.replace(/\/+$/, '');
  return {
    async brandOf(accountId) {
      try {
        const { brand } = await client.getAccountBrand({ accountId }, { requestId: newId('request') });
        const path = brand?.logoSha256 && brand.logoType ? logoPath(brand.logoSha256, brand.logoType) : null;
        const accent = brand?.accentColour && /^#[0-9a-f]{6}$/.test(brand.accentColour) ? brand.accentColour : null;
        return { logoUrl: path ? `${base}${path}` : null, accentColour: accent };
      } catch (error) {
        logger.warn({ err: error, accountId }, 'brand unknown (accounts unreachable); the receipt goes out plain');
        return NO_MAIL_BRAND;
      }
    },
    close: () => client.close(),
  };
}
