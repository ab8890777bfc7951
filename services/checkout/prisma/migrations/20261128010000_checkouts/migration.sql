-- Dashboard checkouts (issue 12, `chk_`): a reusable checkout page, pricing table or widget. Each buyer
-- visit makes a payment (checkout_sessions, source 'checkout') that names it and the chosen plan.
CREATE TABLE "checkouts" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "kind" TEXT NOT NULL CHECK ("kind" IN ('page', 'pricing_table', 'widget')),
    "description" TEXT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    -- Fixed price, or a range the buyer chooses in (page and widget); null for pricing tables.
    "amount" DECIMAL(12,2),
    "min_amount" DECIMAL(12,2),
    "max_amount" DECIMAL(12,2),
    -- Pricing tables: [{"label": "...", "amount": "29.00"}], 2 to 4 plans.
    "plans" JSON,
    "merchant_name" TEXT,
    "account_payout_wallet" TEXT,
    "account_fee_bps" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "archived_at" TIMESTAMPTZ(3),
    CONSTRAINT "checkouts_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "checkouts_account_mode_created_idx" ON "checkouts" ("account_id", "livemode", "created_at" DESC, "id" DESC);

ALTER TABLE "checkout_sessions" ADD COLUMN "checkout_id" TEXT;
ALTER TABLE "checkout_sessions" ADD COLUMN "plan_label" TEXT;
