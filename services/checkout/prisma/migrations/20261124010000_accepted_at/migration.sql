-- A held payment the merchant accepted as paid: late settlement details must not fill
-- merchant_received nor publish payment.updated for it (spec, state table).
ALTER TABLE "checkout_sessions" ADD COLUMN "accepted_at" TIMESTAMPTZ(3);
