-- "Received" (reciprocity) is now the referrals routed to the verified workspaces a user is a member of
-- (figures.ts, RECEIVED_SQL), no longer those to projects of the company name the user typed at sign-up.
-- The per-project counts it summed give way to per-workspace counts, kept the same way (a referral's
-- vendor is set when it is created and never changes; referrals are never deleted).
DROP TABLE "project_referral_counts";

CREATE TABLE "vendor_lead_counts" (
    "vendor_id" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "vendor_lead_counts_pkey" PRIMARY KEY ("vendor_id")
);

INSERT INTO "vendor_lead_counts" ("vendor_id", "count")
SELECT "vendor_id", count(*)::int FROM "referrals" WHERE "vendor_id" IS NOT NULL GROUP BY 1;

-- Impact's recent "received" activity reads the workspaces' leads by (vendor_id, created_at, id): the projects'
-- index by date served only the activity by company name.
DROP INDEX "referrals_project_id_created_at_idx";

-- "Received" subtracts the user's own referrals to their workspaces from the workspaces' counts: their kept
-- figures by (user, vendor), a few rows, not every product the user ever referred to.
CREATE INDEX "referrer_project_figures_user_id_vendor_id_idx" ON "referrer_project_figures"("user_id", "vendor_id");
