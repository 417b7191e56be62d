-- CreateEnum
CREATE TYPE "referral_status" AS ENUM ('pending', 'intro_made', 'intro_accepted', 'intro_occurred', 'became_customer', 'declined');

-- CreateTable
CREATE TABLE "referrers" (
    "user_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "first_name" TEXT NOT NULL DEFAULT '',
    "last_name" TEXT NOT NULL DEFAULT '',
    "company_name" TEXT NOT NULL DEFAULT '',
    "company_key" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "referrers_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "projects" (
    "id" TEXT NOT NULL,
    "product_name" TEXT NOT NULL,
    "company_name" TEXT NOT NULL,
    "company_key" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "website" TEXT,
    "referral_program" TEXT,
    "program_checked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "referrals" (
    "id" SERIAL NOT NULL,
    "user_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "status" "referral_status" NOT NULL DEFAULT 'pending',
    "referred_first_name" TEXT NOT NULL,
    "referred_last_name" TEXT NOT NULL,
    "referred_email" TEXT NOT NULL,
    "referred_phone" TEXT,
    "referral_reason" TEXT NOT NULL,
    "is_referral_aware" BOOLEAN NOT NULL DEFAULT false,
    "can_use_referrer_name" BOOLEAN NOT NULL DEFAULT false,
    "notes" TEXT,
    "company" TEXT NOT NULL,
    "search_text" TEXT NOT NULL,
    "email_draft" JSONB,
    "from_clay" BOOLEAN NOT NULL DEFAULT false,
    "email_sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "referrals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "referrer_stage_counts" (
    "user_id" TEXT NOT NULL,
    "status" "referral_status" NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "referrer_stage_counts_pkey" PRIMARY KEY ("user_id","status")
);

-- CreateTable
CREATE TABLE "referrer_companies" (
    "user_id" TEXT NOT NULL,
    "company" TEXT NOT NULL,

    CONSTRAINT "referrer_companies_pkey" PRIMARY KEY ("user_id","company")
);

-- CreateTable
CREATE TABLE "referral_status_changes" (
    "id" SERIAL NOT NULL,
    "referral_id" INTEGER NOT NULL,
    "from_status" "referral_status",
    "to_status" "referral_status" NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "referral_status_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "request_id" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "processed_events" (
    "subscriber" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("subscriber","event_id")
);

-- CreateIndex
CREATE INDEX "projects_company_key_idx" ON "projects"("company_key");

-- CreateIndex
CREATE INDEX "referrals_user_id_created_at_id_idx" ON "referrals"("user_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "referrals_user_id_status_idx" ON "referrals"("user_id", "status");

-- CreateIndex
CREATE INDEX "referrals_user_id_company_idx" ON "referrals"("user_id", "company");

-- CreateIndex
CREATE INDEX "referrals_project_id_user_id_idx" ON "referrals"("project_id", "user_id");

-- CreateIndex
CREATE INDEX "referral_status_changes_referral_id_at_idx" ON "referral_status_changes"("referral_id", "at");

-- CreateIndex
CREATE INDEX "outbox_events_published_at_occurred_at_idx" ON "outbox_events"("published_at", "occurred_at");

-- AddForeignKey
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "referral_status_changes" ADD CONSTRAINT "referral_status_changes_referral_id_fkey" FOREIGN KEY ("referral_id") REFERENCES "referrals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
