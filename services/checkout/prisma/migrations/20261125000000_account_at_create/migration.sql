-- What the gateway (which owns accounts) knew of the account when the session was created: the
-- merchant's display name for the hosted page, and the payout wallet and fee a buyer's start from the
-- hosted page uses (it carries no merchant key, so no fresh snapshot). Null for older sessions.
ALTER TABLE "checkout_sessions" ADD COLUMN "merchant_name" TEXT;
ALTER TABLE "checkout_sessions" ADD COLUMN "account_payout_wallet" TEXT;
ALTER TABLE "checkout_sessions" ADD COLUMN "account_fee_bps" INTEGER;
