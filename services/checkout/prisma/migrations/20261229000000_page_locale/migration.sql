-- The language of the hosted page the buyer started from (their pick, their browser or the merchant's
-- `locale`; docs/adr/0089): the buyer's receipt speaks it. Additive and nullable (expand only): the
-- previous release neither reads nor writes it, and a payment started over the API keeps it null.
ALTER TABLE "checkout_sessions" ADD COLUMN "page_locale" TEXT;
