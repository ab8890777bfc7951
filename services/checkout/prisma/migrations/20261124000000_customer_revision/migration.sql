-- Customers context: the email set at start is versioned, so the customers context applies
-- session.started events in order (a late or redelivered one never moves an order back).
ALTER TABLE "checkout_sessions" ADD COLUMN "customer_revision" INTEGER NOT NULL DEFAULT 0;
