import { ApiError } from '@hc/errors';
import { reencodeLogo } from '../adapters/logo-image.ts';
import { accentRefusal, normalizedHex, type Brand } from '../domain/brand.ts';
import type { BrandStore, BrandChange } from '../store/brand-store.ts';
import { foundAccount, suspendedRefusal } from './merchant-dependencies.ts';

export interface BrandDependencies {
  readonly brands: BrandStore;
  readonly now: () => Date;
}

export interface SetBrandInput {
  /** #rgb or #rrggbb; empty: the platform's colour. */
  readonly accentColour: string;
  /** The upload as sent; undefined keeps the logo. */
  readonly logo?: Uint8Array | undefined;
  readonly removeLogo?: boolean;
}

/** The colour as kept (#rrggbb), or null for the platform's; refused when white text on it fails AA. */
function checkedAccent(typed: string): string | null {
  if (typed.trim() === '') return null;
  const hex = normalizedHex(typed);
  if (!hex) throw new ApiError('invalid_request', 'The accent colour must be a hex colour such as #0a58ca.', 'accent_colour');
  const refusal = accentRefusal(hex);
  if (refusal) throw new ApiError('invalid_request', refusal, 'accent_colour');
  return hex;
}

/**
 * Sets the shop's brand (docs/adr/0096): the colour checked against WCAG AA, the logo checked by its
 * bytes and re-encoded before anything is written. A suspended account's brand cannot be changed by the
 * merchant (403 suspended), checked in the write's own transaction.
 */
export async function setBrand(deps: BrandDependencies, accountId: string, input: SetBrandInput): Promise<Brand> {
  const accentColour = checkedAccent(input.accentColour);
  let logo: BrandChange['logo'];
  if (input.removeLogo) logo = null;
  else if (input.logo !== undefined && input.logo.length > 0) logo = await reencodeLogo(input.logo);
  const { status, brand } = await deps.brands.setBrandIf(accountId, { accentColour, logo }, deps.now(), 'active');
  if (status === null) foundAccount(null);
  if (status !== 'active') throw suspendedRefusal('This account is suspended: its brand cannot be changed. Contact support.');
  return brand;
}
