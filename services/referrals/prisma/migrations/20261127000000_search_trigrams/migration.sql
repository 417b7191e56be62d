-- Issue 15: the dashboard search (`search_text LIKE '%term%'`) for a user with 10,000 referrals among
-- 1,000,000. One GIN index on (user_id, trigrams of search_text): PostgreSQL intersects the user's entry with
-- the term's trigrams inside the index, so a search reads only the user's matching rows. (A trigram index on
-- the text alone reads every user's matches of a common name: 50,000 for "anna" in the bench; the B-tree on
-- user_id reads all 10,000 of the user's rows.)
-- pg_trgm and btree_gin ship with PostgreSQL (contrib), are trusted extensions, and are created in this
-- service's schema (the first of the migration's search_path) unless the database already has them.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- The operator classes are named in the schemas their extensions live in. user_id uses btree_gin's
-- varchar_ops (the same text comparison as its text_ops): Prisma cannot describe a GIN index on a text
-- column with text_ops (prisma/orm#17518), and the schema must equal these migrations.
DO $$
BEGIN
  EXECUTE format(
    'CREATE INDEX "referrals_user_id_search_text_idx" ON "referrals" USING GIN ("user_id" %I.varchar_ops, "search_text" %I.gin_trgm_ops)',
    (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'btree_gin'),
    (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'));
END $$;
