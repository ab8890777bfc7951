-- The buyer's language the merchant chose at create (issue 49, docs/adr/0089): the hosted pages and
-- the receipt speak it. Null (every older payment): the buyer's browser decides, the receipt is English.
ALTER TABLE "checkout_sessions" ADD COLUMN "locale" TEXT;
