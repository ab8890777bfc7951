-- Every idempotency record is inserted (the claim) and updated once moments later (the completion), on
-- the page the insert just filled. With room left on each page the update stays on it (a HOT update:
-- no new entries in the primary key and expires_at indexes, a cheap tuple for pruning); full pages
-- sent four updates in five to a new page with an index entry each (docs/adr/0066).
ALTER TABLE "idempotency_records" SET (fillfactor = 50);
