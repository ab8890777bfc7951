-- Idempotency records of creates: one per (account, mode, key), remembered 24 hours.
-- The session id is chosen before checkout is called, so a retry after a crash re-creates nothing.
CREATE TABLE "idempotency_records" (
    "account_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" CHAR(64) NOT NULL,
    "session_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "locked_until" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("account_id", "livemode", "key"),
    CONSTRAINT "idempotency_records_state_check" CHECK ("state" IN ('running', 'done'))
);
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- Rate-limit counters shared by every gateway process (rate-limiter-flexible's PostgreSQL store layout).
CREATE TABLE "rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);
