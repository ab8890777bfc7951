-- Customers context. Amounts are NUMERIC, never floating point; emails are stored lowercased.

-- One customer per email per mode per account (rule 1), while not erased.
CREATE TABLE "customers" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "email" TEXT,
    "name" TEXT,
    "phone" TEXT,
    "shipping_address" JSONB,
    "billing_address" JSONB,
    "orders_count" INTEGER NOT NULL DEFAULT 0,
    "paid_orders_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "last_order_at" TIMESTAMPTZ(3),
    "erased" BOOLEAN NOT NULL DEFAULT false,
    "erased_at" TIMESTAMPTZ(3),
    "note" TEXT,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "customers_email_check" CHECK ("erased" OR ("email" IS NOT NULL AND "email" = lower("email"))),
    CONSTRAINT "customers_erased_check" CHECK (NOT "erased" OR ("email" IS NULL AND "name" IS NULL AND "phone" IS NULL
        AND "shipping_address" IS NULL AND "billing_address" IS NULL AND "erased_at" IS NOT NULL)),
    CONSTRAINT "customers_counts_check" CHECK ("orders_count" >= 0 AND "paid_orders_count" >= 0 AND "paid_orders_count" <= "orders_count")
);
-- Partial: an erased customer no longer holds its email, so the same email later starts a new customer.
-- Find-or-create relies on it (INSERT … ON CONFLICT … WHERE NOT erased DO NOTHING) to be race-safe.
CREATE UNIQUE INDEX "customers_account_mode_email_key" ON "customers"("account_id", "livemode", "email") WHERE NOT "erased";
CREATE INDEX "customers_account_mode_created_idx" ON "customers"("account_id", "livemode", "created_at" DESC, "id" DESC);

CREATE TABLE "customer_spent" (
    "customer_id" TEXT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "amount" DECIMAL(16,2) NOT NULL,

    CONSTRAINT "customer_spent_pkey" PRIMARY KEY ("customer_id", "currency"),
    CONSTRAINT "customer_spent_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "customer_spent_amount_check" CHECK ("amount" >= 0)
);

CREATE TABLE "customer_store_accounts" (
    "customer_id" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "store_name" TEXT,
    "store_customer_id" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "customer_store_accounts_pkey" PRIMARY KEY ("customer_id", "platform", "store_id"),
    CONSTRAINT "customer_store_accounts_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- One order per checkout session (id = the session's pay_ id).
CREATE TABLE "orders" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "customer_id" TEXT,
    "email" TEXT,
    "name" TEXT,
    "phone" TEXT,
    "shipping_address" JSONB,
    "billing_address" JSONB,
    "store_platform" TEXT,
    "store_id" TEXT,
    "store_name" TEXT,
    "store_customer_id" TEXT,
    "amount" DECIMAL(12,2) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "status" TEXT NOT NULL,
    "status_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "paid_at" TIMESTAMPTZ(3),
    "email_revision" INTEGER NOT NULL DEFAULT 0,
    "paid" BOOLEAN NOT NULL DEFAULT false,
    "paid_amount" DECIMAL(16,2) NOT NULL DEFAULT 0,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "orders_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "orders_paid_check" CHECK ("paid_amount" >= 0 AND ("paid" OR "paid_amount" = 0))
);
CREATE INDEX "orders_account_mode_created_idx" ON "orders"("account_id", "livemode", "created_at" DESC, "id" DESC);
CREATE INDEX "orders_customer_created_idx" ON "orders"("customer_id", "created_at" DESC, "id" DESC);

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
