import { ApiError } from '@hc/errors';
import type { Brand, LogoType } from '../domain/brand.ts';
import type { BrandDependencies } from './set-brand.ts';

/** An account's brand; an account without one (or unknown) has the empty brand: pages show the platform's. */
export function getBrand(deps: BrandDependencies, accountId: string): Promise<Brand> {
  return deps.brands.findBrand(accountId);
}

/** A logo by its address (sha256, lower-case hex); not_found for any other string or a logo no longer kept. */
export async function getLogo(deps: BrandDependencies, sha256: string): Promise<{ image: Uint8Array; contentType: LogoType }> {
  const logo = /^[0-9a-f]{64}$/.test(sha256) ? await deps.brands.findLogo(sha256) : null;
  if (!logo) throw new ApiError('not_found', 'No such logo.');
  return logo;
}
