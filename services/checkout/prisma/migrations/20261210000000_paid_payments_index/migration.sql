-- The settlement statement's period is by the day a payment was paid (issue 32, docs/adr/0057): its
-- walk reads the scope's paid payments in paid_at order on this index, whatever their created_at.
CREATE INDEX "checkout_sessions_account_mode_paid_idx" ON "checkout_sessions"("account_id", "livemode", "paid_at", "id") WHERE "status" = 'paid';
