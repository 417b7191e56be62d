-- Issue 9: vendors become real parties. Referrals are routed to verified vendor workspaces (a read model of
-- profiles' `vendor.saved`), checked against their ICP (`lead_criteria.saved`), decided in their lead inbox,
-- and every step is on the referral's timeline.

-- CreateEnum
CREATE TYPE "lead_status" AS ENUM ('new', 'accepted', 'declined');

-- AlterTable: programs belong to a vendor workspace; their description and website domain are the vendor's own data.
ALTER TABLE "programs" ADD COLUMN     "description" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "domain" TEXT,
ADD COLUMN     "vendor_id" TEXT;

-- AlterTable: the referrer's own description, the client, where the referral was routed and what the vendor decided.
-- Referrals made before keep empty values: they were never routed.
ALTER TABLE "referrals" ADD COLUMN     "client" JSONB,
ADD COLUMN     "decided_at" TIMESTAMPTZ(3),
ADD COLUMN     "decline_reason" TEXT,
ADD COLUMN     "description" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "fit" JSONB,
ADD COLUMN     "lead_status" "lead_status",
ADD COLUMN     "vendor_id" TEXT;

-- A project's description was the first referrer's typing, shown in every other referral to the product and
-- used for their drafts. Shared text now comes only from the vendor's program: the typed ones are dropped
-- (we cannot tell whose they were, so they are given to nobody).
UPDATE "projects" SET "description" = '' WHERE "description" <> '';

-- Bounties are a vendor workspace's, by its id. The copies keyed by company name were saved by whoever
-- registered with that company name: in profiles they become unverified workspaces, whose bounties no
-- longer count. They are dropped here; profiles publishes `bounties.saved` again once a workspace is
-- verified and its members save them.
DELETE FROM "vendor_bounties";

-- AlterTable
ALTER TABLE "vendor_bounties" DROP CONSTRAINT "vendor_bounties_pkey",
DROP COLUMN "company_key",
DROP COLUMN "company_name",
DROP COLUMN "saved_at",
ADD COLUMN     "vendor_id" TEXT NOT NULL,
ADD COLUMN     "version" INTEGER NOT NULL,
ADD CONSTRAINT "vendor_bounties_pkey" PRIMARY KEY ("vendor_id");

-- CreateTable
CREATE TABLE "referral_timeline" (
    "id" SERIAL NOT NULL,
    "referral_id" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "referral_timeline_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vendors" (
    "id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "company_key" TEXT NOT NULL,
    "lead_inbox" TEXT NOT NULL,
    "verified" BOOLEAN NOT NULL,
    "members" JSONB NOT NULL,

    CONSTRAINT "vendors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vendor_lead_criteria" (
    "vendor_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "criteria" JSONB NOT NULL,

    CONSTRAINT "vendor_lead_criteria_pkey" PRIMARY KEY ("vendor_id")
);

-- CreateIndex
CREATE INDEX "referral_timeline_referral_id_at_idx" ON "referral_timeline"("referral_id", "at");

-- CreateIndex
CREATE INDEX "vendors_domain_idx" ON "vendors"("domain");

-- CreateIndex
CREATE INDEX "vendors_company_key_idx" ON "vendors"("company_key");

-- CreateIndex
CREATE INDEX "programs_vendor_id_idx" ON "programs"("vendor_id");

-- CreateIndex
CREATE INDEX "programs_domain_idx" ON "programs"("domain");

-- The Impact dashboard's covering index also carries the vendor (its partner, leaderboard and CSV name).
DROP INDEX "referrals_impact_idx";

-- CreateIndex
CREATE INDEX "referrals_impact_idx" ON "referrals"("user_id", "created_at", "status", "furthest_stage", "deal_value", "closed_won_at", "project_id", "vendor_id");

-- CreateIndex
CREATE INDEX "referrals_vendor_id_created_at_id_idx" ON "referrals"("vendor_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "referral_timeline" ADD CONSTRAINT "referral_timeline_referral_id_fkey" FOREIGN KEY ("referral_id") REFERENCES "referrals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
