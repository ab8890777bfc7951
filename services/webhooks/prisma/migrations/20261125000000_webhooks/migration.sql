-- Webhooks context: endpoints, secrets, events, deliveries, the attempt log, erasures.

CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "enabled_events" TEXT[] NOT NULL,
    "status" TEXT NOT NULL,
    "disabled_reason" TEXT,
    "disabled_at" TIMESTAMPTZ(3),
    "failing_since" TIMESTAMPTZ(3),
    "last_success_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_endpoints_status_check" CHECK ("status" IN ('enabled', 'disabled')),
    CONSTRAINT "webhook_endpoints_reason_check" CHECK (
        ("status" = 'enabled' AND "disabled_reason" IS NULL) OR
        ("status" = 'disabled' AND "disabled_reason" IN ('operator', 'gone', 'failing'))
    ),
    CONSTRAINT "webhook_endpoints_events_check" CHECK (cardinality("enabled_events") > 0)
);
CREATE INDEX "webhook_endpoints_account_mode_idx" ON "webhook_endpoints"("account_id", "livemode", "created_at");

CREATE TABLE "endpoint_secrets" (
    "id" BIGSERIAL NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "endpoint_secrets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "endpoint_secrets_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "endpoint_secrets_endpoint_idx" ON "endpoint_secrets"("endpoint_id");

CREATE TABLE "webhook_events" (
    "seq" BIGSERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "type" TEXT NOT NULL,
    "source_msg_id" TEXT,
    "payment_id" TEXT,
    "created" TIMESTAMPTZ(3) NOT NULL,
    "body" JSON NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "webhook_events_seq_key" ON "webhook_events"("seq");
-- One webhook event per source event: a redelivered source event can never make a second one.
CREATE UNIQUE INDEX "webhook_events_source_msg_id_key" ON "webhook_events"("source_msg_id");
CREATE INDEX "webhook_events_account_mode_seq_idx" ON "webhook_events"("account_id", "livemode", "seq" DESC);
CREATE INDEX "webhook_events_payment_idx" ON "webhook_events"("payment_id");

CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "lease_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivering', 'succeeded', 'failed', 'canceled')),
    CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"("next_attempt_at");
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries"("event_id");
CREATE INDEX "webhook_deliveries_endpoint_status_idx" ON "webhook_deliveries"("endpoint_id", "status");
-- The worker's claim scans only unfinished deliveries, however long the finished history grows.
CREATE INDEX "webhook_deliveries_open_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "status" IN ('pending', 'delivering');

CREATE TABLE "delivery_attempts" (
    "id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "attempt_number" INTEGER NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "succeeded" BOOLEAN NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "request_body" TEXT NOT NULL,
    "response_snippet" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),

    CONSTRAINT "delivery_attempts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "delivery_attempts_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "delivery_attempts_event_idx" ON "delivery_attempts"("event_id", "attempted_at");

CREATE TABLE "erased_payments" (
    "payment_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "erased_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "erased_payments_pkey" PRIMARY KEY ("payment_id")
);

-- Idempotent consumers (@hc/events): message ids already applied, per consumer.
CREATE TABLE "processed_messages" (
    "consumer" TEXT NOT NULL,
    "msg_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "processed_messages_pkey" PRIMARY KEY ("consumer", "msg_id")
);
