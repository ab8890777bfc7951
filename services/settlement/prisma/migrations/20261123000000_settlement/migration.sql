-- Settlement locks, arrivals and verdicts. Amounts are NUMERIC, never floating point.
CREATE TABLE "settlement_locks" (
    "payment_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "deposit_address" TEXT,
    "payout_wallet" TEXT,
    "fee_bps" INTEGER NOT NULL,
    "amount" DECIMAL(12,2) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "usd_rate" DECIMAL(20,10) NOT NULL,
    "usd_value" DECIMAL(14,2) NOT NULL,
    "locked_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "settlement_locks_pkey" PRIMARY KEY ("payment_id"),
    CONSTRAINT "settlement_locks_fee_bps_check" CHECK ("fee_bps" >= 0 AND "fee_bps" <= 10000),
    CONSTRAINT "settlement_locks_amount_check" CHECK ("amount" > 0),
    CONSTRAINT "settlement_locks_usd_rate_check" CHECK ("usd_rate" > 0),
    -- Test mode never has a real deposit address.
    CONSTRAINT "settlement_locks_deposit_address_check" CHECK ("livemode" OR "deposit_address" IS NULL)
);

-- The primary key on txid_in is the "transaction never used before" check: a second arrival with the
-- same transaction cannot be recorded, whichever payment it claims to pay.
CREATE TABLE "arrivals" (
    "txid_in" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "coin" TEXT NOT NULL,
    "value_coin" DECIMAL(24,6) NOT NULL,
    "to_address" TEXT,
    "forwarded_to" TEXT,
    "txid_out" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "arrivals_pkey" PRIMARY KEY ("txid_in"),
    CONSTRAINT "arrivals_value_coin_check" CHECK ("value_coin" >= 0)
);

CREATE INDEX "arrivals_payment_id_idx" ON "arrivals"("payment_id");

CREATE TABLE "verdicts" (
    "id" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "hold_reason" TEXT,
    "hold_acceptable" BOOLEAN NOT NULL,
    "coin" TEXT,
    "value_coin" DECIMAL(24,6),
    "merchant_received" DECIMAL(24,6),
    "txid_in" TEXT,
    "txid_out" TEXT,
    "payout_wallet" TEXT,
    "decided_at" TIMESTAMPTZ(3) NOT NULL,
    "simulation_of" TEXT,

    CONSTRAINT "verdicts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "verdicts_kind_check" CHECK ("kind" IN ('paid', 'held', 'failed')),
    CONSTRAINT "verdicts_hold_check" CHECK (("kind" = 'held') = ("hold_reason" IS NOT NULL)),
    CONSTRAINT "verdicts_hold_acceptable_check" CHECK ("kind" = 'held' OR NOT "hold_acceptable")
);

-- One simulated verdict per payment; concurrent simulations race on this key and the loser reads the winner.
CREATE UNIQUE INDEX "verdicts_simulation_of_key" ON "verdicts"("simulation_of");
CREATE INDEX "verdicts_payment_id_idx" ON "verdicts"("payment_id");
