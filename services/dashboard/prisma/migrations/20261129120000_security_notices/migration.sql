-- Security notices (docs/adr/0038): a change to the account that every user of it must hear of (today
-- the payout wallet), shown as a banner on each user's pages until that user dismisses it. The
-- platform sends no email yet; when a notifications context exists it sends these too.
CREATE TABLE security_notices (
  id          bigserial PRIMARY KEY,
  account_id  text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('payout_wallet_changed')),
  actor_email text NOT NULL,
  old_value   text,
  new_value   text,
  created_at  timestamptz(3) NOT NULL
);
CREATE INDEX security_notices_account_idx ON security_notices (account_id, created_at);

-- Who has dismissed which notice: one row per user and notice; a user's rows go with the user.
CREATE TABLE security_notice_dismissals (
  notice_id    bigint NOT NULL REFERENCES security_notices (id) ON DELETE CASCADE,
  user_id      text NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
  dismissed_at timestamptz(3) NOT NULL,
  PRIMARY KEY (notice_id, user_id)
);
