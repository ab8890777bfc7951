-- The gateways' key-cache leases (KeyDirectoryService.HoldLease, docs/adr/0108): one row per gateway
-- process, the change position it has applied and when its lease runs out, by this database's clock.
-- A change to a key or an account is answered only once every unexpired lease has applied it.
CREATE TABLE "key_cache_leases" (
    "cache_id" TEXT NOT NULL,
    "applied" BIGINT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    -- The holder's call number: a call that arrives after a later one changes nothing.
    "renewal" BIGINT NOT NULL,

    CONSTRAINT "key_cache_leases_pkey" PRIMARY KEY ("cache_id")
);
