-- Merchant accounts and API keys. Keys are stored as sha256 hashes only.
CREATE TABLE "merchant_accounts" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "payout_wallet" TEXT,
    "fee_bps" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "merchant_accounts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "merchant_accounts_status_check" CHECK ("status" IN ('active', 'suspended')),
    CONSTRAINT "merchant_accounts_fee_bps_check" CHECK ("fee_bps" >= 0 AND "fee_bps" <= 10000)
);

CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "hint" TEXT NOT NULL,
    "label" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "api_keys_mode_check" CHECK ("mode" IN ('test', 'live'))
);

CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");
CREATE INDEX "api_keys_account_id_idx" ON "api_keys"("account_id");

ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "merchant_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
