-- Team and roles (docs/adr/0055): every user has one role in its account. Users made before roles
-- existed were made by the operator as the account's only people and could do everything: owners.
ALTER TABLE dashboard_users
  ADD COLUMN role text NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'admin', 'developer', 'viewer'));
CREATE INDEX dashboard_users_account_idx ON dashboard_users (account_id, created_at);

-- The audit log (docs/adr/0056): who did what to an account, from the dashboard or the operator CLI.
-- Append-only: the triggers below refuse UPDATE, DELETE and TRUNCATE for every role that uses the
-- table, so not even a bug in the dashboard can rewrite history. Secrets are never written here.
CREATE TABLE audit_entries (
  id             bigserial PRIMARY KEY,
  account_id     text NOT NULL,
  at             timestamptz(3) NOT NULL,
  -- 'user' (a dashboard user, actor = their email at the time) or 'operator' (the CLI, actor = the
  -- operator's login name on the machine that ran it).
  actor_kind     text NOT NULL CHECK (actor_kind IN ('user', 'operator')),
  actor          text NOT NULL,
  client_address text NOT NULL,
  -- One of the actions of src/domain/roles.ts, or operator.* for the CLI's.
  action         text NOT NULL,
  -- 'test', 'live', or null for what belongs to no mode (the team, the account's status).
  mode           text CHECK (mode IN ('test', 'live')),
  -- The object acted on (pay_…, we_…, a user's email), when there is one.
  target         text,
  -- 'done' or 'refused' (with the HTTP status the dashboard answered).
  outcome        text NOT NULL CHECK (outcome IN ('done', 'refused')),
  status         integer,
  -- Settings: the value before and after (never a secret).
  before_value   text,
  after_value    text
);
CREATE INDEX audit_entries_account_idx ON audit_entries (account_id, id DESC);

CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_entries is append-only';
END;
$$;
CREATE TRIGGER audit_entries_no_update BEFORE UPDATE OR DELETE ON audit_entries
  FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only();
CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
  FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only();
