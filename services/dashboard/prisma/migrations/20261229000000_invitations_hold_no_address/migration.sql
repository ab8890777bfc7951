-- An invitation no longer holds its address (issue 47 item 6, docs/adr/0082). Until now an invited user
-- (no password yet) took the email across the platform: another account inviting it got 409, which told
-- that account the address had a dashboard user, and an account could claim an address in advance.
-- Now only a user who has set a password holds the address; an invited user is unique within its account.
DROP INDEX dashboard_users_email_key;
CREATE UNIQUE INDEX dashboard_users_signed_up_email_key ON dashboard_users (email) WHERE password_hash IS NOT NULL;
CREATE UNIQUE INDEX dashboard_users_account_email_key ON dashboard_users (account_id, email);
