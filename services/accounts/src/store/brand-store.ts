import type { AccountStatus } from '../domain/merchant-account.ts';
import { NO_BRAND, type Brand, type LogoType } from '../domain/brand.ts';
import type { AccountsPrisma } from './prisma.ts';

interface BrandRow {
  accentColour: string | null;
  logoSha256: string | null;
  logoType: string | null;
}

/** A change of the brand: the colour always; the logo only when it changes (null removes it). */
export interface BrandChange {
  readonly accentColour: string | null;
  readonly logo?: { readonly image: Uint8Array; readonly contentType: LogoType; readonly sha256: string } | null;
}

const BRAND_FIELDS = { accentColour: true, logoSha256: true, logoType: true } as const;

function toBrand(row: BrandRow | null): Brand {
  if (!row) return NO_BRAND;
  const logo = row.logoSha256 && row.logoType ? { sha256: row.logoSha256, contentType: row.logoType as LogoType } : null;
  return { accentColour: row.accentColour, logo };
}

/**
 * The only code that knows the account_brands table (docs/adr/0096), through Prisma alone. Reads
 * never load the logo's bytes except `findLogo`, the one read that serves them.
 */
export class BrandStore {
  private readonly prisma: AccountsPrisma;

  constructor(prisma: AccountsPrisma) {
    this.prisma = prisma;
  }

  async findBrand(accountId: string): Promise<Brand> {
    return toBrand(await this.prisma.accountBrand.findUnique({ where: { accountId }, select: BRAND_FIELDS }));
  }

  /** The logo that some account has now under this hash (content-addressed: any such row has these bytes). */
  async findLogo(sha256: string): Promise<{ image: Uint8Array; contentType: LogoType } | null> {
    const row = await this.prisma.accountBrand.findFirst({ where: { logoSha256: sha256 }, select: { logo: true, logoType: true } });
    return row?.logo && row.logoType ? { image: row.logo, contentType: row.logoType as LogoType } : null;
  }

  /**
   * Writes the brand while the account has status `onlyIf`, in one transaction that holds the account
   * row (FOR SHARE), so a suspension that commits first wins. Answers the account's status as read
   * (null: no such account) and the brand after the change (unchanged when the status did not match).
   */
  async setBrandIf(
    accountId: string,
    change: BrandChange,
    at: Date,
    onlyIf: AccountStatus,
  ): Promise<{ status: AccountStatus | null; brand: Brand }> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ status: AccountStatus }[]>`
        SELECT status FROM merchant_accounts WHERE id = ${accountId} FOR SHARE`;
      const status = rows[0]?.status ?? null;
      if (status !== onlyIf) {
        const row = await tx.accountBrand.findUnique({ where: { accountId }, select: BRAND_FIELDS });
        return { status, brand: toBrand(row) };
      }
      const logo =
        change.logo === undefined
          ? {}
          : change.logo === null
            ? { logo: null, logoType: null, logoSha256: null }
            : { logo: Uint8Array.from(change.logo.image), logoType: change.logo.contentType, logoSha256: change.logo.sha256 };
      const data = { accentColour: change.accentColour, ...logo, updatedAt: at };
      const row = await tx.accountBrand.upsert({
        where: { accountId },
        create: { accountId, ...data },
        update: data,
        select: BRAND_FIELDS,
      });
      return { status, brand: toBrand(row) };
    });
  }
}
