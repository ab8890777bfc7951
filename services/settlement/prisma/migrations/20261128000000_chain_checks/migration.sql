-- The scheduled chain status check (docs/adr/0025) and trace context on the outbox (docs/adr/0019).

-- When the chain check last looked at a payment's deposit address; replicas claim due payments with
-- FOR UPDATE SKIP LOCKED and move this forward, so each payment is looked at by one of them at a time.
ALTER TABLE "settlement_locks" ADD COLUMN "chain_checked_at" TIMESTAMPTZ(3);
CREATE INDEX "settlement_locks_chain_due_idx" ON "settlement_locks"("chain_checked_at" NULLS FIRST)
    WHERE "livemode" AND "deposit_address" IS NOT NULL;

-- Transfers the chain check has seen and judged (confirmed or not), so each goes on the timeline once
-- and is not judged again on every pass.
CREATE TABLE "chain_transfers_seen" (
    "txid_in" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "chain_transfers_seen_pkey" PRIMARY KEY ("txid_in", "payment_id")
);

-- W3C traceparent of the transaction that wrote the row; the relay publishes it as a header.
ALTER TABLE "outbox_messages" ADD COLUMN "trace_parent" TEXT;
