-- The audit log is written before the action (issue 32, docs/adr/0060): a change first adds its line
-- as 'started', then the line is completed once with the outcome. A process that dies in between
-- leaves 'started' (the action may or may not have happened) instead of no line at all.
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_outcome_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_outcome_check CHECK (outcome IN ('started', 'done', 'refused'));
-- When the outcome was recorded (null: still started, or written in one step).
ALTER TABLE audit_entries ADD COLUMN completed_at timestamptz(3);

-- Still append-only, with one exception: a 'started' line is completed once (outcome, status, object,
-- before → after, and the account of a CLI command that made it). Who, when, from where and what
-- action never change; a completed line never changes again; nothing is ever deleted.
CREATE OR REPLACE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.outcome = 'started' AND NEW.outcome IN ('done', 'refused')
     AND NEW.id = OLD.id AND NEW.at = OLD.at AND NEW.actor_kind = OLD.actor_kind AND NEW.actor = OLD.actor
     AND NEW.client_address = OLD.client_address AND NEW.action = OLD.action
     AND NEW.mode IS NOT DISTINCT FROM OLD.mode
     AND (NEW.account_id = OLD.account_id OR OLD.account_id = '') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_entries is append-only (a started line is completed once, nothing else changes)';
END;
$$;
