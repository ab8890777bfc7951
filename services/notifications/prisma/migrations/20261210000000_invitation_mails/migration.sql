-- Invitations to the dashboard (issue 32, docs/adr/0059): the dashboard asks for the mail over gRPC.
-- Its one-time link is a secret: the bodies hold a placeholder, the link itself is kept sealed
-- (@hc/secrets, bound to the row) until the mail is sent or given up, then dropped.

ALTER TABLE "mails" DROP CONSTRAINT "mails_kind_check";
ALTER TABLE "mails" ADD CONSTRAINT "mails_kind_check"
    CHECK ("kind" IN ('receipt', 'payment_held', 'late_payment', 'webhook_failing', 'invitation'));
ALTER TABLE "mails" ADD COLUMN "sealed_link" TEXT;
-- Only a mail still to be sent keeps its link.
ALTER TABLE "mails" ADD CONSTRAINT "mails_sealed_link_check"
    CHECK ("sealed_link" IS NULL OR "status" IN ('queued', 'sending'));
