-- A referral keeps the vendor's bounties of the moment it was made: each milestone pays the better of these and
-- the vendor's bounties at confirmation (termsOf of @app/domain), so lowering a bounty no longer lowers what the
-- referrals already made were told they would earn.
ALTER TABLE "referrals" ADD COLUMN "bounties_at_referral" JSONB;

-- The referrals made before did not keep theirs: today's bounties of their verified workspace are the best
-- known of what they were told, and are kept from now on.
UPDATE "referrals" r SET "bounties_at_referral" = vb."bounties"
  FROM "vendor_bounties" vb JOIN "vendors" v ON v."id" = vb."vendor_id" AND v."verified"
 WHERE vb."vendor_id" = r."vendor_id";

-- A confirmation keeps the bounty it was confirmed under (what its commission was computed from), so both sides
-- keep seeing the terms it paid by after the vendor edits its bounties. Those made before did not keep it.
ALTER TABLE "milestone_confirmations" ADD COLUMN "bounty" JSONB;

-- Impact's pending figures count each milestone by its terms at referral too (the text of the referral's bounty
-- for it, '' when none or not enabled: a disabled bounty at referral is no term, termsOf takes today's), so Impact
-- values them as the referral's terms (termsOf) and not at today's bounty only.
ALTER TABLE "referrer_pending_figures" ADD COLUMN "terms" TEXT NOT NULL DEFAULT '';
ALTER TABLE "referrer_pending_figures" DROP CONSTRAINT "referrer_pending_figures_pkey",
  ADD CONSTRAINT "referrer_pending_figures_pkey" PRIMARY KEY ("user_id", "vendor_id", "milestone", "deal_cents", "terms");
-- Impact probes the milestones a vendor no longer pays only for the counts with terms at referral (impact.ts).
-- Partial: Prisma cannot describe it (it ignores it).
CREATE INDEX "referrer_pending_figures_terms_idx" ON "referrer_pending_figures" ("user_id", "vendor_id", "milestone")
  WHERE "terms" <> '';

CREATE OR REPLACE FUNCTION "count_referral_figures"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  -- A change (or a deletion): each table only when its key or value moves.
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND (OLD."user_id", OLD."created_at", OLD."status", OLD."furthest_stage", OLD."closed_won_at", OLD."expected_value_cents")
       IS DISTINCT FROM (NEW."user_id", NEW."created_at", NEW."status", NEW."furthest_stage", NEW."closed_won_at", NEW."expected_value_cents")) THEN
    INSERT INTO "referrer_month_figures" AS f ("user_id", "month", "status", "furthest_stage", "closed_won_month", "count", "expected_value_cents")
    SELECT c.user_id, c.month, c.status, c.furthest_stage, c.closed_won_month, sum(c.n), sum(c.expected)
      FROM (SELECT (r).user_id, date_trunc('month', (r).created_at AT TIME ZONE 'UTC')::date AS month, (r).status,
                   (r).furthest_stage, coalesce(date_trunc('month', (r).closed_won_at AT TIME ZONE 'UTC')::date, DATE '1970-01-01') AS closed_won_month,
                   d AS n, d * coalesce((r).expected_value_cents, 0) AS expected
              FROM (SELECT OLD AS r, -1 AS d UNION ALL SELECT NEW, 1 WHERE TG_OP = 'UPDATE') AS rows) AS c
     GROUP BY 1, 2, 3, 4, 5
    HAVING sum(c.n) <> 0 OR sum(c.expected) <> 0
     ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("user_id", "month", "status", "furthest_stage", "closed_won_month") DO UPDATE
       SET "count" = f."count" + EXCLUDED."count", "expected_value_cents" = f."expected_value_cents" + EXCLUDED."expected_value_cents";
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND
       (OLD."user_id", OLD."project_id", OLD."vendor_id", CASE WHEN OLD."status" = 'became_customer' THEN coalesce(OLD."deal_value_cents", 0) ELSE 0 END)
       IS DISTINCT FROM (NEW."user_id", NEW."project_id", NEW."vendor_id", CASE WHEN NEW."status" = 'became_customer' THEN coalesce(NEW."deal_value_cents", 0) ELSE 0 END)) THEN
    INSERT INTO "referrer_project_figures" AS f ("user_id", "project_id", "vendor_id", "count", "revenue_cents")
    SELECT c.user_id, c.project_id, c.vendor_id, sum(c.n), sum(c.revenue)
      FROM (SELECT (r).user_id, (r).project_id, coalesce((r).vendor_id, '') AS vendor_id, d AS n,
                   CASE WHEN (r).status = 'became_customer' THEN d * coalesce((r).deal_value_cents, 0) ELSE 0 END AS revenue
              FROM (SELECT OLD AS r, -1 AS d UNION ALL SELECT NEW, 1 WHERE TG_OP = 'UPDATE') AS rows) AS c
     GROUP BY 1, 2, 3
    HAVING sum(c.n) <> 0 OR sum(c.revenue) <> 0
     ORDER BY 1, 2, 3
    ON CONFLICT ("user_id", "project_id", "vendor_id") DO UPDATE
       SET "count" = f."count" + EXCLUDED."count", "revenue_cents" = f."revenue_cents" + EXCLUDED."revenue_cents";
  END IF;

  -- Pending milestones, when the old or new row can have one and what they depend on moved; with the
  -- confirmations as they are now (a confirmation locks its referral first: milestones.ts).
  IF ((OLD."vendor_id" IS NOT NULL AND OLD."furthest_stage" > 0) OR (NEW."vendor_id" IS NOT NULL AND NEW."furthest_stage" > 0))
     AND (TG_OP = 'DELETE' OR (OLD."user_id", OLD."vendor_id", OLD."furthest_stage", OLD."status" = 'declined', OLD."lead_status" = 'declined',
                                coalesce(OLD."deal_value_cents", OLD."expected_value_cents"), OLD."bounties_at_referral")
          IS DISTINCT FROM (NEW."user_id", NEW."vendor_id", NEW."furthest_stage", NEW."status" = 'declined', NEW."lead_status" = 'declined',
                                coalesce(NEW."deal_value_cents", NEW."expected_value_cents"), NEW."bounties_at_referral")) THEN
    INSERT INTO "referrer_pending_figures" AS f ("user_id", "vendor_id", "milestone", "deal_cents", "terms", "count")
    SELECT c.user_id, c.vendor_id, c.milestone, c.deal_cents, c.terms, sum(c.d)
      FROM (SELECT (x.r).user_id, (x.r).vendor_id, m.milestone,
                   coalesce((x.r).deal_value_cents, (x.r).expected_value_cents, -1) AS deal_cents,
                   CASE WHEN ((x.r).bounties_at_referral -> m.milestone ->> 'enabled') = 'true'
                        THEN ((x.r).bounties_at_referral -> m.milestone)::text ELSE '' END AS terms, x.d
              FROM (SELECT OLD AS r, -1 AS d UNION ALL SELECT NEW, 1 WHERE TG_OP = 'UPDATE') AS x
              JOIN (VALUES ('qualifiedLead', 1), ('meetingHeld', 2), ('opportunityCreated', 3), ('closedWon', 4)) AS m (milestone, rank)
                ON (x.r).furthest_stage >= m.rank
             WHERE (x.r).vendor_id IS NOT NULL AND (x.r).status <> 'declined' AND (x.r).lead_status <> 'declined'
               AND NOT EXISTS (SELECT 1 FROM "milestone_confirmations" mc WHERE mc."referral_id" = (x.r).id AND mc."milestone" = m.milestone)) AS c
     GROUP BY 1, 2, 3, 4, 5
    HAVING sum(c.d) <> 0
     ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("user_id", "vendor_id", "milestone", "deal_cents", "terms") DO UPDATE SET "count" = f."count" + EXCLUDED."count";
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "count_new_referrals"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO "referrer_month_figures" AS f ("user_id", "month", "status", "furthest_stage", "closed_won_month", "count", "expected_value_cents")
  SELECT "user_id", date_trunc('month', "created_at" AT TIME ZONE 'UTC')::date, "status", "furthest_stage",
         coalesce(date_trunc('month', "closed_won_at" AT TIME ZONE 'UTC')::date, DATE '1970-01-01'),
         count(*)::int, coalesce(sum("expected_value_cents"), 0)::bigint
    FROM "new_referrals" GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("user_id", "month", "status", "furthest_stage", "closed_won_month") DO UPDATE
     SET "count" = f."count" + EXCLUDED."count", "expected_value_cents" = f."expected_value_cents" + EXCLUDED."expected_value_cents";
  INSERT INTO "referrer_project_figures" AS f ("user_id", "project_id", "vendor_id", "count", "revenue_cents")
  SELECT "user_id", "project_id", coalesce("vendor_id", ''), count(*)::int,
         coalesce(sum("deal_value_cents") FILTER (WHERE "status" = 'became_customer'), 0)::bigint
    FROM "new_referrals" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT ("user_id", "project_id", "vendor_id") DO UPDATE
     SET "count" = f."count" + EXCLUDED."count", "revenue_cents" = f."revenue_cents" + EXCLUDED."revenue_cents";
  -- None at Tee-up (furthest_stage 0), the service's case.
  INSERT INTO "referrer_pending_figures" AS f ("user_id", "vendor_id", "milestone", "deal_cents", "terms", "count")
  SELECT r."user_id", r."vendor_id", m.milestone, coalesce(r."deal_value_cents", r."expected_value_cents", -1),
         CASE WHEN (r."bounties_at_referral" -> m.milestone ->> 'enabled') = 'true'
              THEN (r."bounties_at_referral" -> m.milestone)::text ELSE '' END, count(*)::int
    FROM "new_referrals" r
    JOIN (VALUES ('qualifiedLead', 1), ('meetingHeld', 2), ('opportunityCreated', 3), ('closedWon', 4)) AS m (milestone, rank)
      ON r."furthest_stage" >= m.rank
   WHERE r."vendor_id" IS NOT NULL AND r."status" <> 'declined' AND r."lead_status" <> 'declined'
     AND NOT EXISTS (SELECT 1 FROM "milestone_confirmations" mc WHERE mc."referral_id" = r."id" AND mc."milestone" = m.milestone)
   GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("user_id", "vendor_id", "milestone", "deal_cents", "terms") DO UPDATE SET "count" = f."count" + EXCLUDED."count";
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "count_confirmation_figures"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  c "milestone_confirmations" := CASE WHEN TG_OP = 'INSERT' THEN NEW ELSE OLD END;
BEGIN
  INSERT INTO "referrer_pending_figures" AS f ("user_id", "vendor_id", "milestone", "deal_cents", "terms", "count")
  SELECT r."user_id", r."vendor_id", m.milestone, coalesce(r."deal_value_cents", r."expected_value_cents", -1),
         CASE WHEN (r."bounties_at_referral" -> m.milestone ->> 'enabled') = 'true'
              THEN (r."bounties_at_referral" -> m.milestone)::text ELSE '' END, CASE WHEN TG_OP = 'INSERT' THEN -1 ELSE 1 END
    FROM "referrals" r
    JOIN (VALUES ('qualifiedLead', 1), ('meetingHeld', 2), ('opportunityCreated', 3), ('closedWon', 4)) AS m (milestone, rank)
      ON m.milestone = c."milestone" AND r."furthest_stage" >= m.rank
   WHERE r."id" = c."referral_id" AND r."vendor_id" IS NOT NULL AND r."status" <> 'declined' AND r."lead_status" <> 'declined'
  ON CONFLICT ("user_id", "vendor_id", "milestone", "deal_cents", "terms") DO UPDATE SET "count" = f."count" + EXCLUDED."count";
  RETURN NULL;
END $$;
-- The terms are written once, at creation; the trigger still follows them, as every column its figures read.
DROP TRIGGER "referrals_figures_update" ON "referrals";
CREATE TRIGGER "referrals_figures_update" AFTER UPDATE OF "user_id", "created_at", "status", "furthest_stage", "closed_won_at",
    "expected_value_cents", "project_id", "vendor_id", "deal_value_cents", "lead_status", "bounties_at_referral" ON "referrals"
  FOR EACH ROW WHEN ((OLD."user_id", OLD."created_at", OLD."status", OLD."furthest_stage", OLD."closed_won_at", OLD."expected_value_cents",
                      OLD."project_id", OLD."vendor_id", OLD."deal_value_cents", OLD."lead_status", OLD."bounties_at_referral")
       IS DISTINCT FROM (NEW."user_id", NEW."created_at", NEW."status", NEW."furthest_stage", NEW."closed_won_at", NEW."expected_value_cents",
                      NEW."project_id", NEW."vendor_id", NEW."deal_value_cents", NEW."lead_status", NEW."bounties_at_referral"))
  EXECUTE FUNCTION "count_referral_figures"();

-- Every figure built again from the referrals and confirmations (here, and by the tests and benchmarks that load
-- rows with the triggers off): what the triggers keep.
CREATE FUNCTION "rebuild_referral_figures"() RETURNS void LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  TRUNCATE "referrer_month_figures", "referrer_project_figures", "referrer_pending_figures";
  INSERT INTO "referrer_month_figures" ("user_id", "month", "status", "furthest_stage", "closed_won_month", "count", "expected_value_cents")
  SELECT "user_id", date_trunc('month', "created_at" AT TIME ZONE 'UTC')::date, "status", "furthest_stage",
         coalesce(date_trunc('month', "closed_won_at" AT TIME ZONE 'UTC')::date, DATE '1970-01-01'),
         count(*)::int, coalesce(sum("expected_value_cents"), 0)::bigint
    FROM "referrals" GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO "referrer_project_figures" ("user_id", "project_id", "vendor_id", "count", "revenue_cents")
  SELECT "user_id", "project_id", coalesce("vendor_id", ''), count(*)::int,
         coalesce(sum("deal_value_cents") FILTER (WHERE "status" = 'became_customer'), 0)::bigint
    FROM "referrals" GROUP BY 1, 2, 3;
  INSERT INTO "referrer_pending_figures" ("user_id", "vendor_id", "milestone", "deal_cents", "terms", "count")
  SELECT r."user_id", r."vendor_id", m.milestone, coalesce(r."deal_value_cents", r."expected_value_cents", -1),
         CASE WHEN (r."bounties_at_referral" -> m.milestone ->> 'enabled') = 'true'
              THEN (r."bounties_at_referral" -> m.milestone)::text ELSE '' END, count(*)::int
    FROM "referrals" r
    JOIN (VALUES ('qualifiedLead', 1), ('meetingHeld', 2), ('opportunityCreated', 3), ('closedWon', 4)) AS m (milestone, rank)
      ON r."furthest_stage" >= m.rank
   WHERE r."vendor_id" IS NOT NULL AND r."status" <> 'declined' AND r."lead_status" <> 'declined'
     AND NOT EXISTS (SELECT 1 FROM "milestone_confirmations" mc WHERE mc."referral_id" = r."id" AND mc."milestone" = m.milestone)
   GROUP BY 1, 2, 3, 4, 5;
END $$;

SELECT "rebuild_referral_figures"();

-- Impact's leaderboard reads what each top partner sent back from the kept figures of the partner's users, found
-- by their company (impact.ts).
CREATE INDEX "referrers_company_key_idx" ON "referrers"("company_key");
