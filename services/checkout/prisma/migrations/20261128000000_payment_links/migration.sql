-- Payment links (issue 12): who the link is for and a note to the payer, both shown on the hosted
-- and tracking pages and in the webhook payment shape. Null for API payments.
ALTER TABLE "checkout_sessions" ADD COLUMN "customer_name" TEXT;
ALTER TABLE "checkout_sessions" ADD COLUMN "memo" TEXT;
-- Listing an account's payment links newest first.
CREATE INDEX "checkout_sessions_account_mode_source_created_idx"
  ON "checkout_sessions" ("account_id", "livemode", "source", "created_at" DESC, "id" DESC);
