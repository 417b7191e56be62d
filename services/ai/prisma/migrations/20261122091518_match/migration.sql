-- CreateTable
CREATE TABLE "match_programs" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "website" TEXT NOT NULL,
    "reward_details" TEXT NOT NULL,
    "company_name" TEXT,
    "company_key" TEXT,
    "is_active" BOOLEAN NOT NULL,
    "saved_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "match_programs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vendor_profiles" (
    "company_key" TEXT NOT NULL,
    "company_name" TEXT NOT NULL,
    "criteria" JSONB,
    "criteria_at" TIMESTAMPTZ(3),
    "bounties" JSONB,
    "bounties_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vendor_profiles_pkey" PRIMARY KEY ("company_key")
);

-- CreateIndex
CREATE INDEX "match_programs_company_key_idx" ON "match_programs"("company_key");
