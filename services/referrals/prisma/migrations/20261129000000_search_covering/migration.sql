-- Issue 15, fifth pass: the dashboard search (`search_text LIKE '%term%'`) as an index-only scan of the user's own
-- entries in a B-tree that carries the text (reads.ts, `searched`): the LIKE is checked on each entry of the user
-- (of one stage when the list is filtered by stage), so a search costs what the user's rows cost, never the
-- table's, and whatever the plan cache decides (a generic plan, which estimates ~100 rows per user, preferred the
-- user's B-tree ranges with a heap visit per row to the trigram index). The other filters' columns (created_at,
-- company) and the id ride along, so every filtered search stays in the index.
-- A B-tree entry holds at most ~2.7 KB: a text over 2,000 bytes (a long reason) is left out of it and found
-- through the second index, of those rows only (nearly empty). Prisma cannot describe partial indexes and ignores
-- them (`migrate diff`), like the statistics below.
CREATE INDEX "referrals_search_short_idx" ON "referrals" ("user_id", "status") INCLUDE ("created_at", "id", "company", "search_text")
  WHERE octet_length("search_text") <= 2000;
CREATE INDEX "referrals_search_long_idx" ON "referrals" ("user_id", "status") WHERE octet_length("search_text") > 2000;
-- How many texts are long: without it PostgreSQL guesses a third of the rows for either bound, and its custom plans
-- (a statement's first five runs on a connection) read the long ones' arm through another index.
CREATE STATISTICS "referrals_search_text_length" ON (octet_length("search_text")) FROM "referrals";
-- The trigram index, which no list plan reads any more, while every insert paid for its ~120 keys (bench/README.md).
-- pg_trgm and btree_gin stay installed (another schema of the database may use them).
DROP INDEX "referrals_user_id_search_text_idx";
