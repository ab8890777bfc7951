/**
 * The tables every service that publishes or consumes events keeps in its own database. Each
 * service copies this DDL into one of its Prisma migrations (prisma/migrations/<ts>_<name>/migration.sql),
 * because migrations are plain, checksummed SQL owned by the service (docs/adr/0003, 0004).
 *
 * Written the way `prisma migrate diff` would write it (named primary key, `_key` unique index), so
 * the matching Prisma models (see README) produce no drift. The partial index on unpublished rows is
 * what keeps the relay's poll cheap once the table holds millions of published rows.
 */
export const OUTBOX_TABLE_SQL = `-- Transactional outbox (@hc/events): written in the same transaction as the state change.
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

-- Idempotent consumers (@hc/events): message ids already applied, per consumer.
CREATE TABLE "processed_messages" (
    "consumer" TEXT NOT NULL,
    "msg_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "processed_messages_pkey" PRIMARY KEY ("consumer", "msg_id")
);
`;

/** The PostgreSQL channel the relay LISTENs on. */
export const OUTBOX_CHANNEL = 'outbox';

/**
 * Wakes the relay at once instead of at its next poll. Run it inside the transaction that wrote the
 * outbox row: PostgreSQL delivers a NOTIFY only when that transaction commits (and drops it on
 * rollback), and folds repeated NOTIFYs of one transaction into one.
 */
export const OUTBOX_NOTIFY_SQL = `NOTIFY ${OUTBOX_CHANNEL}`;

/**
 * Optional: a statement-level trigger that does the NOTIFY for every insert into outbox_messages,
 * so no code path can forget it. A service that wants it adds this to a migration after
 * OUTBOX_TABLE_SQL. Prisma's schema does not model triggers and leaves them alone.
 */
export const OUTBOX_NOTIFY_TRIGGER_SQL = `-- Wake the outbox relay (@hc/events) when outbox rows are committed.
CREATE FUNCTION "outbox_messages_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NOTIFY ${OUTBOX_CHANNEL};
    RETURN NULL;
END;
$$;
CREATE TRIGGER "outbox_messages_notify" AFTER INSERT ON "outbox_messages"
    FOR EACH STATEMENT EXECUTE FUNCTION "outbox_messages_notify"();
`;
