-- Key cache invalidation (docs/adr/0027): every change to a key or an account is announced on the
-- channel "gateway_keys" when its transaction commits, whoever wrote it (CLI, dashboard, SQL by hand).
-- Gateways LISTEN and drop what they cached for that key or account; the payload names which:
-- "key:<key_hash>" or "account:<id>".
CREATE FUNCTION "gateway_keys_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'api_keys' THEN
    PERFORM pg_notify('gateway_keys', 'key:' || OLD."key_hash");
    IF TG_OP = 'UPDATE' AND NEW."key_hash" IS DISTINCT FROM OLD."key_hash" THEN
      PERFORM pg_notify('gateway_keys', 'key:' || NEW."key_hash");
    END IF;
  ELSE
    PERFORM pg_notify('gateway_keys', 'account:' || OLD."id");
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "api_keys_notify" AFTER UPDATE OR DELETE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION "gateway_keys_notify"();
CREATE TRIGGER "merchant_accounts_notify" AFTER UPDATE OR DELETE ON "merchant_accounts"
  FOR EACH ROW EXECUTE FUNCTION "gateway_keys_notify"();
