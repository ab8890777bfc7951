-- Checkout sessions (= payments). Amounts are NUMERIC, never floating point.
CREATE TABLE "checkout_sessions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "amount" DECIMAL(12,2) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "description" TEXT NOT NULL,
    "reference" TEXT,
    "customer_email" TEXT,
    "metadata" JSONB,
    "success_url" TEXT,
    "cancel_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3),

    CONSTRAINT "checkout_sessions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "checkout_sessions_status_check" CHECK ("status" IN ('open', 'pending', 'paid', 'held', 'failed', 'expired')),
    CONSTRAINT "checkout_sessions_amount_check" CHECK ("amount" >= 1.00 AND "amount" <= 100000.00)
);

CREATE INDEX "checkout_sessions_account_mode_id_idx" ON "checkout_sessions"("account_id", "livemode", "id" DESC);
CREATE INDEX "checkout_sessions_status_expires_at_idx" ON "checkout_sessions"("status", "expires_at");
