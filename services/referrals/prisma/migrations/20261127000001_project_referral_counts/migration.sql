-- Issue 15: the dashboard's "received" (other users' referrals to the user's company's projects) counted the
-- rows of those projects, a number that grows with everyone's referrals (19,800 rows, ~3-4.5 ms, for the
-- bench user among 1,000,000). Each project's count is now kept in the transaction that creates a referral
-- (referrals are never deleted nor moved), and "received" sums a few rows.
CREATE TABLE "project_referral_counts" (
    "project_id" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "project_referral_counts_pkey" PRIMARY KEY ("project_id")
);

INSERT INTO "project_referral_counts" ("project_id", "count")
SELECT "project_id", count(*)::int FROM "referrals" GROUP BY "project_id";
