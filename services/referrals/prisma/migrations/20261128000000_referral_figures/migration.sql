-- Issue 15: the Impact dashboard's totals, funnel, pipeline, trends and leaderboard aggregated each of the
-- user's referrals (10,000 index entries, 15-25 ms for the bench user among 1,000,000). Their figures are now
-- kept per (user, month, stage...) and per (user, product, vendor), a few hundred rows a user, by a trigger on
-- referrals: every write path (creation, stage changes, deal values, routing) updates them in its own
-- transaction, so they can never disagree with the rows. Rows whose count falls to 0 are kept (reads skip them).
-- Pending bounties read the user's routed referrals from the heap and probed each one's confirmations (6,500
-- rows, 11-12 ms): they are now counted per (user, vendor, milestone, deal value), by the same trigger and one
-- on milestone_confirmations.

-- Per user, UTC month of creation, stage, furthest stage and UTC month of closed_won_at (1970-01-01 when none).
CREATE TABLE "referrer_month_figures" (
    "user_id" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "status" "referral_status" NOT NULL,
    "furthest_stage" SMALLINT NOT NULL,
    "closed_won_month" DATE NOT NULL,
    "count" INTEGER NOT NULL,
    "expected_value_cents" BIGINT NOT NULL,

    CONSTRAINT "referrer_month_figures_pkey" PRIMARY KEY ("user_id","month","status","furthest_stage","closed_won_month")
);

-- Per user, product and vendor ('' when not routed): referrals sent, deal values of those Closed-Won.
CREATE TABLE "referrer_project_figures" (
    "user_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "vendor_id" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "revenue_cents" BIGINT NOT NULL,

    CONSTRAINT "referrer_project_figures_pkey" PRIMARY KEY ("user_id","project_id","vendor_id")
);

-- Per user, vendor, milestone and deal value (coalesce(deal, expected), -1 when none): the referrals whose
-- stage reached the milestone (furthest_stage, the ranks of @app/domain's STAGE_MILESTONES) that the vendor has
-- not confirmed, routed and declined by neither side. Valued at read time at the vendor's bounties then.
CREATE TABLE "referrer_pending_figures" (
    "user_id" TEXT NOT NULL,
    "vendor_id" TEXT NOT NULL,
    "milestone" TEXT NOT NULL,
    "deal_cents" BIGINT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "referrer_pending_figures_pkey" PRIMARY KEY ("user_id","vendor_id","milestone","deal_cents")
);

-- The referral's figures leave the old row's keys (UPDATE, DELETE) and join the new row's (INSERT, UPDATE).
-- Each table's rows are upserted in one statement in key order, so two concurrent changes of one user's
-- referrals (A -> B and B -> A) cannot deadlock on each other's rows; the tables are always taken in the
-- same order (months, products, pending).
-- A change or a deletion, row by row.
CREATE FUNCTION "count_referral_figures"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
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
                                coalesce(OLD."deal_value_cents", OLD."expected_value_cents"))
          IS DISTINCT FROM (NEW."user_id", NEW."vendor_id", NEW."furthest_stage", NEW."status" = 'declined', NEW."lead_status" = 'declined',
                                coalesce(NEW."deal_value_cents", NEW."expected_value_cents"))) THEN
    INSERT INTO "referrer_pending_figures" AS f ("user_id", "vendor_id", "milestone", "deal_cents", "count")
    SELECT c.user_id, c.vendor_id, c.milestone, c.deal_cents, sum(c.d)
      FROM (SELECT (x.r).user_id, (x.r).vendor_id, m.milestone,
                   coalesce((x.r).deal_value_cents, (x.r).expected_value_cents, -1) AS deal_cents, x.d
              FROM (SELECT OLD AS r, -1 AS d UNION ALL SELECT NEW, 1 WHERE TG_OP = 'UPDATE') AS x
              JOIN (VALUES ('qualifiedLead', 1), ('meetingHeld', 2), ('opportunityCreated', 3), ('closedWon', 4)) AS m (milestone, rank)
                ON (x.r).furthest_stage >= m.rank
             WHERE (x.r).vendor_id IS NOT NULL AND (x.r).status <> 'declined' AND (x.r).lead_status <> 'declined'
               AND NOT EXISTS (SELECT 1 FROM "milestone_confirmations" mc WHERE mc."referral_id" = (x.r).id AND mc."milestone" = m.milestone)) AS c
     GROUP BY 1, 2, 3, 4
    HAVING sum(c.d) <> 0
     ORDER BY 1, 2, 3, 4
    ON CONFLICT ("user_id", "vendor_id", "milestone", "deal_cents") DO UPDATE SET "count" = f."count" + EXCLUDED."count";
  END IF;
  RETURN NULL;
END $$;

-- New referrals, per statement (one referral from the service, or many from a bulk load): grouped, as the
-- backfill below.
CREATE FUNCTION "count_new_referrals"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
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
  INSERT INTO "referrer_pending_figures" AS f ("user_id", "vendor_id", "milestone", "deal_cents", "count")
  SELECT r."user_id", r."vendor_id", m.milestone, coalesce(r."deal_value_cents", r."expected_value_cents", -1), count(*)::int
    FROM "new_referrals" r
    JOIN (VALUES ('qualifiedLead', 1), ('meetingHeld', 2), ('opportunityCreated', 3), ('closedWon', 4)) AS m (milestone, rank)
      ON r."furthest_stage" >= m.rank
   WHERE r."vendor_id" IS NOT NULL AND r."status" <> 'declined' AND r."lead_status" <> 'declined'
     AND NOT EXISTS (SELECT 1 FROM "milestone_confirmations" mc WHERE mc."referral_id" = r."id" AND mc."milestone" = m.milestone)
   GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT ("user_id", "vendor_id", "milestone", "deal_cents") DO UPDATE SET "count" = f."count" + EXCLUDED."count";
  RETURN NULL;
END $$;

CREATE TRIGGER "referrals_figures_insert" AFTER INSERT ON "referrals" REFERENCING NEW TABLE AS "new_referrals"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_new_referrals"();
CREATE TRIGGER "referrals_figures_delete" AFTER DELETE ON "referrals"
  FOR EACH ROW EXECUTE FUNCTION "count_referral_figures"();
-- Only the updates that move a figure (not drafts, emails, lead decisions...).
CREATE TRIGGER "referrals_figures_update" AFTER UPDATE OF "user_id", "created_at", "status", "furthest_stage", "closed_won_at",
    "expected_value_cents", "project_id", "vendor_id", "deal_value_cents", "lead_status" ON "referrals"
  FOR EACH ROW WHEN ((OLD."user_id", OLD."created_at", OLD."status", OLD."furthest_stage", OLD."closed_won_at", OLD."expected_value_cents",
                      OLD."project_id", OLD."vendor_id", OLD."deal_value_cents", OLD."lead_status")
       IS DISTINCT FROM (NEW."user_id", NEW."created_at", NEW."status", NEW."furthest_stage", NEW."closed_won_at", NEW."expected_value_cents",
                      NEW."project_id", NEW."vendor_id", NEW."deal_value_cents", NEW."lead_status"))
  EXECUTE FUNCTION "count_referral_figures"();

-- A confirmation takes its milestone's referral out of the pending figures (a deleted one puts it back).
CREATE FUNCTION "count_confirmation_figures"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  c "milestone_confirmations" := CASE WHEN TG_OP = 'INSERT' THEN NEW ELSE OLD END;
BEGIN
  INSERT INTO "referrer_pending_figures" AS f ("user_id", "vendor_id", "milestone", "deal_cents", "count")
  SELECT r."user_id", r."vendor_id", m.milestone, coalesce(r."deal_value_cents", r."expected_value_cents", -1),
         CASE WHEN TG_OP = 'INSERT' THEN -1 ELSE 1 END
    FROM "referrals" r
    JOIN (VALUES ('qualifiedLead', 1), ('meetingHeld', 2), ('opportunityCreated', 3), ('closedWon', 4)) AS m (milestone, rank)
      ON m.milestone = c."milestone" AND r."furthest_stage" >= m.rank
   WHERE r."id" = c."referral_id" AND r."vendor_id" IS NOT NULL AND r."status" <> 'declined' AND r."lead_status" <> 'declined'
  ON CONFLICT ("user_id", "vendor_id", "milestone", "deal_cents") DO UPDATE SET "count" = f."count" + EXCLUDED."count";
  RETURN NULL;
END $$;
CREATE TRIGGER "milestone_confirmations_figures" AFTER INSERT OR DELETE ON "milestone_confirmations"
  FOR EACH ROW EXECUTE FUNCTION "count_confirmation_figures"();

-- The payout summary and the earned trend read the user's ledger entries (2,200 heap rows for the bench user):
-- the index on (user_id, at) now carries kind and amount, so both are index-only (the ledger is append-only, its
-- pages all-visible).
DROP INDEX "commission_entries_user_id_at_idx";
CREATE INDEX "commission_entries_user_id_at_kind_amount_cents_idx" ON "commission_entries"("user_id", "at", "kind", "amount_cents");

-- The referrals already made.
INSERT INTO "referrer_month_figures" ("user_id", "month", "status", "furthest_stage", "closed_won_month", "count", "expected_value_cents")
SELECT "user_id", date_trunc('month', "created_at" AT TIME ZONE 'UTC')::date, "status", "furthest_stage",
       coalesce(date_trunc('month', "closed_won_at" AT TIME ZONE 'UTC')::date, DATE '1970-01-01'),
       count(*)::int, coalesce(sum("expected_value_cents"), 0)::bigint
  FROM "referrals" GROUP BY 1, 2, 3, 4, 5;
INSERT INTO "referrer_project_figures" ("user_id", "project_id", "vendor_id", "count", "revenue_cents")
SELECT "user_id", "project_id", coalesce("vendor_id", ''), count(*)::int,
       coalesce(sum("deal_value_cents") FILTER (WHERE "status" = 'became_customer'), 0)::bigint
  FROM "referrals" GROUP BY 1, 2, 3;
INSERT INTO "referrer_pending_figures" ("user_id", "vendor_id", "milestone", "deal_cents", "count")
SELECT r."user_id", r."vendor_id", m.milestone, coalesce(r."deal_value_cents", r."expected_value_cents", -1), count(*)::int
  FROM "referrals" r
  JOIN (VALUES ('qualifiedLead', 1), ('meetingHeld', 2), ('opportunityCreated', 3), ('closedWon', 4)) AS m (milestone, rank)
    ON r."furthest_stage" >= m.rank
 WHERE r."vendor_id" IS NOT NULL AND r."status" <> 'declined' AND r."lead_status" <> 'declined'
   AND NOT EXISTS (SELECT 1 FROM "milestone_confirmations" mc WHERE mc."referral_id" = r."id" AND mc."milestone" = m.milestone)
 GROUP BY 1, 2, 3, 4;
