-- Smart Match knows vendors by id (issue 9). The company-keyed copies of lead criteria and bounties are
-- dropped, not converted: they came from users naming a company in free text, and those become unverified
-- workspaces, whose ICP and bounties no longer apply to anyone. The vendor-keyed copies fill again from
-- `vendor.saved`, `lead_criteria.saved` and `bounties.saved`. Programs keep their rows; the vendor id
-- arrives with their next `program.saved` (none was linked before).
-- DropIndex
DROP INDEX "match_programs_company_key_idx";

-- AlterTable
ALTER TABLE "match_programs" DROP COLUMN "company_key",
ADD COLUMN     "vendor_id" TEXT;

-- DropTable
DROP TABLE "vendor_profiles";

-- CreateTable
CREATE TABLE "match_vendors" (
    "vendor_id" TEXT NOT NULL,
    "version" INTEGER,
    "name" TEXT NOT NULL DEFAULT '',
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "criteria" JSONB,
    "criteria_version" INTEGER,
    "bounties" JSONB,
    "bounties_version" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "match_vendors_pkey" PRIMARY KEY ("vendor_id")
);

-- CreateIndex
CREATE INDEX "match_programs_vendor_id_idx" ON "match_programs"("vendor_id");
