-- Dashboard users, sessions, sign-in attempts and set-password links (docs/adr/0028).
CREATE TABLE dashboard_users (
  id                  text PRIMARY KEY,
  account_id          text NOT NULL,
  email               text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  password_hash       text,
  totp_secret         text,
  totp_pending_secret text,
  totp_last_step      bigint,
  created_at          timestamptz(3) NOT NULL,
  password_changed_at timestamptz(3)
);
CREATE UNIQUE INDEX dashboard_users_email_key ON dashboard_users (email);

CREATE TABLE dashboard_sessions (
  id_hash           text PRIMARY KEY,
  user_id           text NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
  csrf_token        text NOT NULL,
  second_factor_due boolean NOT NULL DEFAULT false,
  flash             text,
  created_at        timestamptz(3) NOT NULL,
  expires_at        timestamptz(3) NOT NULL,
  last_seen_at      timestamptz(3) NOT NULL
);
CREATE INDEX dashboard_sessions_user_idx ON dashboard_sessions (user_id);

CREATE TABLE sign_in_attempts (
  id             bigserial PRIMARY KEY,
  email          text NOT NULL,
  client_address text NOT NULL,
  succeeded      boolean NOT NULL,
  at             timestamptz(3) NOT NULL
);
CREATE INDEX sign_in_attempts_email_idx ON sign_in_attempts (email, at);
CREATE INDEX sign_in_attempts_address_idx ON sign_in_attempts (client_address, at);

CREATE TABLE password_setup_tokens (
  token_hash text PRIMARY KEY,
  user_id    text NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
  expires_at timestamptz(3) NOT NULL,
  used_at    timestamptz(3)
);
