-- Live settlement (docs/adr/0015, 0016): verdicts published through an outbox, signed processor
-- notices recorded once by id, arrivals tagged with who reported them, and a per-payment timeline.

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

-- Where the locked USD rate came from, next to the rate itself.
ALTER TABLE "settlement_locks" ADD COLUMN "usd_rate_source" TEXT NOT NULL DEFAULT 'configured';

-- Late settlement details of a payment confirmed by the scheduled chain check.
ALTER TABLE "verdicts" DROP CONSTRAINT "verdicts_kind_check";
ALTER TABLE "verdicts" ADD CONSTRAINT "verdicts_kind_check" CHECK ("kind" IN ('paid', 'held', 'failed', 'details'));

-- Who reported an arrival: the sandbox, a processor notice, or the scheduled chain check.
ALTER TABLE "arrivals" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'sandbox';
ALTER TABLE "arrivals" ADD CONSTRAINT "arrivals_source_check" CHECK ("source" IN ('sandbox', 'notice', 'chain'));

-- Every signed notice accepted from the processor, by its id: a notice id is handled once, so a
-- replayed or redelivered notice changes nothing.
CREATE TABLE "notices" (
    "id" TEXT NOT NULL,
    "payment_id" TEXT,
    "body" JSONB NOT NULL,
    "outcome" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notices_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "notices_payment_id_idx" ON "notices"("payment_id");

-- Append-only record of what happened to a payment's money (operators and, later, the dashboard).
CREATE TABLE "timeline_entries" (
    "seq" BIGSERIAL NOT NULL,
    "payment_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "detail" JSONB NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "timeline_entries_pkey" PRIMARY KEY ("seq")
);
CREATE INDEX "timeline_entries_payment_id_idx" ON "timeline_entries"("payment_id", "seq");
