-- Issue 15: the dashboard search (`search_text LIKE '%term%'`) reads only the user's own matches. The trigram
-- index of 20261127000000 keyed its posting lists by trigram for every user ('ann' held every user's Annas:
-- ~50,000 rows at 1,000,000), intersected with the user's entry: its cost grew with the table. Here every key is
-- the user's own: a GIN index over bigint keys computed from the row (no column),
--   [ hash(user_id) , hash(user_id ':s:' status) ] + [ hash(user_id ':t:' s) for every 3-character substring s ],
-- and a search asks for the keys of its term (referral_search_term_keys): the hashes of the term's 3-character
-- substrings and the stage's key when filtered (the user's key alone for a term of 1-2 characters).
-- Exact by construction: if the term is a substring of search_text, each of its 3-character substrings is one
-- of the row's, so the row holds every key asked for (plain substrings: no word splitting, case folding or
-- locale involved). A hash collision only adds a candidate, and `search_text LIKE` rechecks every candidate.
-- The functions use only pg_catalog (any search_path evaluates them alike); IMMUTABLE: a stage's label is
-- part of its key, so renaming a referral_status value would need this index rebuilt (REINDEX).
-- Prisma cannot describe an index on an expression and ignores it (as it does these functions): the schema
-- names it in a comment only, and test/search-index.test.ts checks it is there and is the search's plan.

CREATE FUNCTION referral_search_keys(user_id text, status referral_status, search_text text) RETURNS bigint[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT ARRAY[hashtextextended(user_id, 0), hashtextextended(user_id || ':s:' || status::text, 0)]
        || ARRAY(SELECT hashtextextended(user_id || ':t:' || substr(search_text, i, 3), 0)
                   FROM generate_series(1, length(search_text) - 2) i)
  $$;

CREATE FUNCTION referral_search_term_keys(user_id text, status referral_status, term text) RETURNS bigint[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT CASE WHEN length(term) < 3 THEN ARRAY[hashtextextended(user_id, 0)]
                ELSE ARRAY(SELECT hashtextextended(user_id || ':t:' || substr(term, i, 3), 0)
                             FROM generate_series(1, length(term) - 2) i) END
        || CASE WHEN status IS NULL THEN '{}'::bigint[]
                ELSE ARRAY[hashtextextended(user_id || ':s:' || status::text, 0)] END
  $$;

CREATE INDEX "referrals_search_keys_idx" ON "referrals" USING GIN (referral_search_keys("user_id", "status", "search_text"));

DROP INDEX "referrals_user_id_search_text_idx";
