-- A wallet-change notice names the Live payments started and not yet paid at the change (issue 47 item 1,
-- docs/adr/0081): their money follows the wallet of the moment it is forwarded, so a merchant who did not
-- make the change sees which payments someone may have started meanwhile. Older notices list none (NULL).
ALTER TABLE "security_notices" ADD COLUMN "affected_payment_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "security_notices" ADD COLUMN "affected_count" INTEGER;
