-- The payout wallet is decided when the money is forwarded, not when the buyer starts (docs/adr/0081):
-- the processor asks settlement before it forwards a transfer, and settlement answers with the
-- account's wallet at that moment. The first answer for a transfer is kept, so a retried question gets
-- the same wallet, and the settlement checks compare the reported forwarding with it.
CREATE TABLE "forward_decisions" (
    "payment_id" TEXT NOT NULL,
    "txid_in" TEXT NOT NULL,
    "payout_wallet" TEXT NOT NULL,
    "decided_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "forward_decisions_pkey" PRIMARY KEY ("payment_id", "txid_in")
);
