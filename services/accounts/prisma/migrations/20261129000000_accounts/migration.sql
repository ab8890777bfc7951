-- Accounts context (docs/adr/0085): merchant accounts and API keys, moved from the gateway's database
-- (the same tables and columns: rows move unchanged, docs/adr/0086). Keys are stored as sha256 hashes only.
CREATE TABLE "merchant_accounts" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "payout_wallet" TEXT,
    "fee_bps" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "merchant_accounts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "merchant_accounts_status_check" CHECK ("status" IN ('active', 'suspended')),
    CONSTRAINT "merchant_accounts_fee_bps_check" CHECK ("fee_bps" >= 0 AND "fee_bps" <= 10000)
);

CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "hint" TEXT NOT NULL,
    "label" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "api_keys_mode_check" CHECK ("mode" IN ('test', 'live'))
);

CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");
CREATE INDEX "api_keys_account_id_idx" ON "api_keys"("account_id");

ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "merchant_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The change feed the gateways' key caches pull (KeyDirectoryService.Changes, docs/adr/0085): one row
-- per changed key (by hash) or account, written by the triggers below in the transaction of the
-- change, whoever wrote it (the service, the data move, SQL by hand). The only way into this table.
CREATE TABLE "account_changes" (
    "position" BIGSERIAL NOT NULL,
    "key_hash" CHAR(64),
    "account_id" TEXT,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "account_changes_pkey" PRIMARY KEY ("position"),
    CONSTRAINT "account_changes_one_subject_check" CHECK (("key_hash" IS NULL) <> ("account_id" IS NULL))
);

-- A reader that saw position N must have seen every position below N: so positions are taken in
-- commit order. The table lock (SHARE ROW EXCLUSIVE conflicts with itself, never with readers) lets one
-- changing transaction at a time take positions, until it commits; account writes are few.
CREATE FUNCTION "account_changes_record"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE "account_changes" IN SHARE ROW EXCLUSIVE MODE;
  IF TG_TABLE_NAME = 'api_keys' THEN
    INSERT INTO "account_changes" ("key_hash") VALUES (OLD."key_hash");
    IF TG_OP = 'UPDATE' AND NEW."key_hash" IS DISTINCT FROM OLD."key_hash" THEN
      INSERT INTO "account_changes" ("key_hash") VALUES (NEW."key_hash");
    END IF;
  ELSE
    INSERT INTO "account_changes" ("account_id") VALUES (OLD."id");
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "api_keys_record_change" AFTER UPDATE OR DELETE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION "account_changes_record"();
CREATE TRIGGER "merchant_accounts_record_change" AFTER UPDATE OR DELETE ON "merchant_accounts"
  FOR EACH ROW EXECUTE FUNCTION "account_changes_record"();

-- Transactional outbox (@hc/events): written in the same transaction as the state change.
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
