-- Endpoint alerts (docs/adr/0049): the webhooks context publishes `webhooks.endpoint.failing` and
-- `webhooks.endpoint.disabled` through a transactional outbox (@hc/events), written with the attempt
-- that caused them; `failing_alerted_at` makes the failing alert once per failing streak.
ALTER TABLE "webhook_endpoints" ADD COLUMN "failing_alerted_at" TIMESTAMPTZ(3);

CREATE TABLE "outbox_messages" (
    "seq" BIGSERIAL NOT NULL,
    "msg_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "published_at" TIMESTAMPTZ(3),
    "trace_parent" TEXT,

    CONSTRAINT "outbox_messages_pkey" PRIMARY KEY ("seq")
);
CREATE UNIQUE INDEX "outbox_messages_msg_id_key" ON "outbox_messages"("msg_id");
CREATE INDEX "outbox_messages_unpublished_idx" ON "outbox_messages"("seq") WHERE "published_at" IS NULL;

-- Wake the outbox relay (@hc/events) when outbox rows are committed.
CREATE FUNCTION "outbox_messages_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NOTIFY outbox;
    RETURN NULL;
END;
$$;
CREATE TRIGGER "outbox_messages_notify" AFTER INSERT ON "outbox_messages"
    FOR EACH STATEMENT EXECUTE FUNCTION "outbox_messages_notify"();
