-- Notifications context (docs/notifications.md, docs/adr/0048): per-account mail settings, the mails
-- (an outbox of mails: each row is sent by the mail worker, then marked), erased payments, and the
-- idempotent consumers' processed messages.

CREATE TABLE "notification_settings" (
    "account_id" TEXT NOT NULL,
    "receipts_enabled" BOOLEAN NOT NULL DEFAULT true,
    "test_receipts_enabled" BOOLEAN NOT NULL DEFAULT false,
    "alert_address" TEXT,
    "alert_payment_held" BOOLEAN NOT NULL DEFAULT true,
    "alert_webhook_failing" BOOLEAN NOT NULL DEFAULT true,
    "alert_late_payment" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "notification_settings_pkey" PRIMARY KEY ("account_id")
);

CREATE TABLE "mails" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "kind" TEXT NOT NULL,
    "dedupe_key" TEXT NOT NULL,
    "payment_id" TEXT,
    "recipient" TEXT,
    "recipient_name" TEXT,
    "sender_name" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text_body" TEXT NOT NULL,
    "html_body" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "lease_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "sent_at" TIMESTAMPTZ(3),
    "erased_at" TIMESTAMPTZ(3),

    CONSTRAINT "mails_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "mails_kind_check" CHECK ("kind" IN ('receipt', 'payment_held', 'late_payment', 'webhook_failing')),
    CONSTRAINT "mails_status_check" CHECK ("status" IN ('queued', 'sending', 'sent', 'failed', 'canceled'))
);
-- One mail per cause: a receipt per payment, an alert per event (docs/adr/0048).
CREATE UNIQUE INDEX "mails_dedupe_key_key" ON "mails"("dedupe_key");
-- The worker's queue: only mails still to send.
CREATE INDEX "mails_due_idx" ON "mails"("next_attempt_at") WHERE "status" IN ('queued', 'sending');
-- The dashboard's mail log, newest first.
CREATE INDEX "mails_account_mode_created_idx" ON "mails"("account_id", "livemode", "created_at" DESC, "id" DESC);
CREATE INDEX "mails_payment_idx" ON "mails"("payment_id");

-- Payments whose buyer was erased: a payment event of theirs that comes later makes no receipt.
CREATE TABLE "erased_payments" (
    "payment_id" TEXT NOT NULL,
    "erased_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "erased_payments_pkey" PRIMARY KEY ("payment_id")
);

-- Idempotent consumers (@hc/events): message ids already applied, per consumer.
CREATE TABLE "processed_messages" (
    "consumer" TEXT NOT NULL,
    "msg_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "processed_messages_pkey" PRIMARY KEY ("consumer", "msg_id")
);
