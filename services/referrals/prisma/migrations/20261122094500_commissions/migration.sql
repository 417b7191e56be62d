-- Deal value, furthest stage reached and the retention clock on referrals
ALTER TABLE "referrals" ADD COLUMN "deal_value" DECIMAL(14,2),
ADD COLUMN "furthest_stage" SMALLINT NOT NULL DEFAULT 0,
ADD COLUMN "closed_won_at" TIMESTAMPTZ(3);

-- The referral's owner on its status changes (recent activity by index)
ALTER TABLE "referral_status_changes" ADD COLUMN "user_id" TEXT NOT NULL DEFAULT '';

UPDATE "referral_status_changes" c SET "user_id" = r."user_id" FROM "referrals" r WHERE r."id" = c."referral_id";

UPDATE "referrals" r SET "furthest_stage" = coalesce((
    SELECT max(CASE c."to_status" WHEN 'intro_made' THEN 1 WHEN 'intro_occurred' THEN 2 WHEN 'intro_accepted' THEN 3 WHEN 'became_customer' THEN 4 ELSE 0 END)
      FROM "referral_status_changes" c WHERE c."referral_id" = r."id"), 0),
  "closed_won_at" = CASE WHEN r."status" = 'became_customer' THEN r."updated_at" END;

-- CreateTable
CREATE TABLE "vendor_bounties" (
    "company_key" TEXT NOT NULL,
    "company_name" TEXT NOT NULL,
    "bounties" JSONB NOT NULL,
    "saved_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "vendor_bounties_pkey" PRIMARY KEY ("company_key")
);

-- CreateTable
CREATE TABLE "commissions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "referral_id" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "milestone" TEXT NOT NULL,
    "gross_amount" DECIMAL(14,2) NOT NULL,
    "referrer_amount" DECIMAL(14,2) NOT NULL,
    "platform_fee" DECIMAL(14,2) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'in_escrow',
    "earned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "paid_out_at" TIMESTAMPTZ(3),

    CONSTRAINT "commissions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "referrals_impact_idx" ON "referrals"("user_id", "created_at", "status", "furthest_stage", "deal_value", "closed_won_at", "project_id");

-- CreateIndex
CREATE INDEX "referrals_project_id_created_at_idx" ON "referrals"("project_id", "created_at");

-- CreateIndex
CREATE INDEX "referrals_closed_won_at_idx" ON "referrals"("closed_won_at");

-- CreateIndex
CREATE INDEX "referral_status_changes_user_id_at_idx" ON "referral_status_changes"("user_id", "at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "commissions_referral_id_milestone_key" ON "commissions"("referral_id", "milestone");

-- CreateIndex
CREATE INDEX "commissions_user_id_earned_at_idx" ON "commissions"("user_id", "earned_at" DESC);

-- AddForeignKey
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_referral_id_fkey" FOREIGN KEY ("referral_id") REFERENCES "referrals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
