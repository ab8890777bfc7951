-- The shop's brand (docs/adr/0096): accent colour and logo, one row per account, written by the
-- dashboard through MerchantAdminService.SetBrand and read by the pages and the mails (BrandService).
CREATE TABLE "account_brands" (
    "account_id" TEXT NOT NULL,
    "accent_colour" CHAR(7),
    "logo" BYTEA,
    "logo_type" TEXT,
    "logo_sha256" CHAR(64),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_brands_pkey" PRIMARY KEY ("account_id"),
    CONSTRAINT "account_brands_accent_colour_check" CHECK ("accent_colour" ~ '^#[0-9a-f]{6}$'),
    CONSTRAINT "account_brands_logo_type_check" CHECK ("logo_type" IN ('image/png', 'image/webp')),
    -- A logo is its bytes, its type and its hash together, or none of them.
    CONSTRAINT "account_brands_logo_whole_check" CHECK (
      ("logo" IS NULL) = ("logo_type" IS NULL) AND ("logo" IS NULL) = ("logo_sha256" IS NULL)),
    CONSTRAINT "account_brands_logo_size_check" CHECK (octet_length("logo") <= 524288)
);
CREATE INDEX "account_brands_logo_sha256_idx" ON "account_brands"("logo_sha256");
ALTER TABLE "account_brands" ADD CONSTRAINT "account_brands_account_id_fkey"
  FOREIGN KEY ("account_id") REFERENCES "merchant_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
