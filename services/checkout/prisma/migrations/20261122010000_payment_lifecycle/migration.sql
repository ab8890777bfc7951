-- Payment lifecycle: start, provider, settlement copy, verdicts applied once, transactional outbox.
ALTER TABLE "checkout_sessions"
    ADD COLUMN "country" CHAR(2),
    ADD COLUMN "provider" TEXT,
    ADD COLUMN "paid_at" TIMESTAMPTZ(3),
    ADD COLUMN "hold_reason" TEXT,
    ADD COLUMN "hold_acceptable" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "canceled_at" TIMESTAMPTZ(3),
    ADD COLUMN "source" TEXT NOT NULL DEFAULT 'api',
    ADD COLUMN "fee_bps" INTEGER,
    ADD COLUMN "deposit_address" TEXT,
    ADD COLUMN "payout_wallet" TEXT,
    ADD COLUMN "usd_value" DECIMAL(14,2),
    ADD COLUMN "coin" TEXT,
    ADD COLUMN "value_coin" DECIMAL(20,6),
    ADD COLUMN "merchant_received" DECIMAL(20,6),
    ADD COLUMN "txid_in" TEXT,
    ADD COLUMN "txid_out" TEXT;

-- Metadata is returned exactly as sent: json keeps key order, jsonb does not.
ALTER TABLE "checkout_sessions" ALTER COLUMN "metadata" TYPE JSON USING "metadata"::json;

-- Lists: newest first, ties broken by id.
CREATE INDEX "checkout_sessions_account_mode_created_idx" ON "checkout_sessions"("account_id", "livemode", "created_at" DESC, "id" DESC);

-- A verdict from settlement is applied at most once, whichever path (gRPC or JetStream) brings it.
CREATE TABLE "applied_verdicts" (
    "verdict_id" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "applied_verdicts_pkey" PRIMARY KEY ("verdict_id")
);

-- Transactional outbox (@hc/events): written in the same transaction as the state change.
CREATE TABLE "outbox_messages" (
    "seq" BIGSERIAL NOT NULL,
    "msg_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_messages_pkey" PRIMARY KEY ("seq")
);
CREATE UNIQUE INDEX "outbox_messages_msg_id_key" ON "outbox_messages"("msg_id");
CREATE INDEX "outbox_messages_unpublished_idx" ON "outbox_messages"("seq") WHERE "published_at" IS NULL;

-- Idempotent consumers (@hc/events): message ids already applied, per consumer.
CREATE TABLE "processed_messages" (
    "consumer" TEXT NOT NULL,
    "msg_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "processed_messages_pkey" PRIMARY KEY ("consumer", "msg_id")
);
