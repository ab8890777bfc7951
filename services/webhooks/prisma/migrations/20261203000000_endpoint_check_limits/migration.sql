-- The endpoint checker's per-account rate limit (docs/adr/0087): one row per account, the count of
-- checks in the minute that started at window_start. Shared by every webhooks process; a check itself
-- is never stored (no event, delivery or attempt row).
CREATE TABLE "endpoint_check_limits" (
    "account_id" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "endpoint_check_limits_pkey" PRIMARY KEY ("account_id")
);
