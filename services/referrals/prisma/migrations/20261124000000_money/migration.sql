-- Issue 10: honest money. Amounts become integer cents; a milestone earns money only once the vendor (or an
-- administrator for it) confirms it; commissions are immutable rows and every change of one is an entry of
-- the append-only ledger commission_entries; payouts are batches recorded by administrators.

-- Referrals: the vendor's deal values in cents (actual at Closed-Won, expected at opportunity).
ALTER TABLE "referrals" ADD COLUMN "deal_value_cents" BIGINT,
ADD COLUMN "expected_value_cents" BIGINT;

UPDATE "referrals" SET "deal_value_cents" = round("deal_value" * 100)::bigint WHERE "deal_value" IS NOT NULL;

DROP INDEX "referrals_impact_idx";
ALTER TABLE "referrals" DROP COLUMN "deal_value";
CREATE INDEX "referrals_impact_idx" ON "referrals"("user_id", "created_at", "status", "furthest_stage", "deal_value_cents", "expected_value_cents", "closed_won_at", "project_id", "vendor_id");

-- The retention bonus is confirmed by the vendor at its date: no more periodic scan by Closed-Won date.
DROP INDEX "referrals_closed_won_at_idx";

-- Milestones confirmed by the vendor's members or recorded by an administrator (once per referral and milestone).
CREATE TABLE "milestone_confirmations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "referral_id" INTEGER NOT NULL,
    "milestone" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "actor_user_id" TEXT,
    "actor_name" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "deal_value_cents" BIGINT,
    "confirmed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "milestone_confirmations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "milestone_confirmations_referral_id_milestone_key" ON "milestone_confirmations"("referral_id", "milestone");
ALTER TABLE "milestone_confirmations" ADD CONSTRAINT "milestone_confirmations_referral_id_fkey" FOREIGN KEY ("referral_id") REFERENCES "referrals"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The referrer's requests to the vendor to confirm a milestone.
CREATE TABLE "confirmation_requests" (
    "id" SERIAL NOT NULL,
    "referral_id" INTEGER NOT NULL,
    "milestone" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "confirmation_requests_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "confirmation_requests_referral_id_milestone_requested_at_idx" ON "confirmation_requests"("referral_id", "milestone", "requested_at" DESC);
ALTER TABLE "confirmation_requests" ADD CONSTRAINT "confirmation_requests_referral_id_fkey" FOREIGN KEY ("referral_id") REFERENCES "referrals"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Payout batches.
CREATE TABLE "payouts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "reference" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "paid_on" DATE NOT NULL,
    "currency" TEXT NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "recorded_by" TEXT NOT NULL,
    "recorded_by_user_id" TEXT,

    CONSTRAINT "payouts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "payouts_reference_key" ON "payouts"("reference");
CREATE INDEX "payouts_recorded_at_idx" ON "payouts"("recorded_at" DESC);

-- Commissions in cents; their state moves to the ledger.
ALTER TABLE "commissions" ADD COLUMN "gross_cents" BIGINT,
ADD COLUMN "referrer_cents" BIGINT,
ADD COLUMN "fee_cents" BIGINT,
ADD COLUMN "deal_value_cents" BIGINT,
ADD COLUMN "vendor_id" TEXT,
ADD COLUMN "currency" TEXT NOT NULL DEFAULT 'USD';

UPDATE "commissions" c SET "gross_cents" = round(c."gross_amount" * 100)::bigint,
  "referrer_cents" = round(c."referrer_amount" * 100)::bigint,
  "fee_cents" = round(c."gross_amount" * 100)::bigint - round(c."referrer_amount" * 100)::bigint,
  "vendor_id" = r."vendor_id",
  "deal_value_cents" = r."deal_value_cents"
  FROM "referrals" r WHERE r."id" = c."referral_id";

ALTER TABLE "commissions" ALTER COLUMN "gross_cents" SET NOT NULL,
ALTER COLUMN "referrer_cents" SET NOT NULL,
ALTER COLUMN "fee_cents" SET NOT NULL,
ALTER COLUMN "currency" DROP DEFAULT;

-- The ledger: earned (+ referrer cents), reversed (- referrer cents), paid (- referrer cents, with its payout).
CREATE TABLE "commission_entries" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "commission_id" UUID NOT NULL,
    "referral_id" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "amount_cents" BIGINT NOT NULL,
    "actor" TEXT NOT NULL,
    "actor_user_id" TEXT,
    "actor_name" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "payout_id" UUID,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "commission_entries_pkey" PRIMARY KEY ("id")
);
-- One entry of each kind per commission: earned once, paid once, reversed once.
CREATE UNIQUE INDEX "commission_entries_commission_id_kind_key" ON "commission_entries"("commission_id", "kind");
CREATE INDEX "commission_entries_user_id_at_idx" ON "commission_entries"("user_id", "at");
CREATE INDEX "commission_entries_referral_id_at_idx" ON "commission_entries"("referral_id", "at");
CREATE INDEX "commission_entries_payout_id_idx" ON "commission_entries"("payout_id");
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_commission_id_fkey" FOREIGN KEY ("commission_id") REFERENCES "commissions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_payout_id_fkey" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Existing commissions: an 'earned' entry each, a 'paid' one for those paid out.
INSERT INTO "commission_entries" ("commission_id", "referral_id", "user_id", "kind", "amount_cents", "actor", "actor_name", "reason", "at")
SELECT "id", "referral_id", "user_id", 'earned', "referrer_cents", 'system', 'System', 'Migrated', "earned_at"
  FROM "commissions" WHERE "referrer_cents" > 0;
INSERT INTO "commission_entries" ("commission_id", "referral_id", "user_id", "kind", "amount_cents", "actor", "actor_name", "reason", "at")
SELECT "id", "referral_id", "user_id", 'paid', -"referrer_cents", 'system', 'System', 'Migrated', coalesce("paid_out_at", "earned_at")
  FROM "commissions" WHERE "state" = 'paid_out' AND "referrer_cents" > 0;

ALTER TABLE "commissions" DROP COLUMN "gross_amount",
DROP COLUMN "referrer_amount",
DROP COLUMN "platform_fee",
DROP COLUMN "state",
DROP COLUMN "paid_out_at";

ALTER TABLE "commissions" DROP CONSTRAINT "commissions_referral_id_fkey";
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_referral_id_fkey" FOREIGN KEY ("referral_id") REFERENCES "referrals"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE INDEX "commissions_vendor_id_earned_at_idx" ON "commissions"("vendor_id", "earned_at" DESC);
CREATE INDEX "commissions_referral_id_idx" ON "commissions"("referral_id");

-- Append-only: commissions and their ledger are never updated nor deleted, and a commission is never both
-- paid and reversed (checked again here under the lock the payout and the reversal take).
CREATE FUNCTION "refuse_money_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% of % refused: money rows are append-only', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER "commissions_append_only" BEFORE UPDATE OR DELETE ON "commissions"
  FOR EACH ROW EXECUTE FUNCTION "refuse_money_change"();
CREATE TRIGGER "commission_entries_append_only" BEFORE UPDATE OR DELETE ON "commission_entries"
  FOR EACH ROW EXECUTE FUNCTION "refuse_money_change"();

-- (The kind, sign and actor checks live here: CHECK constraints are invisible to Prisma's schema diff.)
CREATE FUNCTION "check_commission_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  settled integer := 0;
BEGIN
  IF NEW."kind" NOT IN ('earned', 'reversed', 'paid') OR NEW."actor" NOT IN ('vendor', 'admin', 'referrer', 'system')
     OR (NEW."kind" = 'earned') <> (NEW."amount_cents" > 0) OR NEW."amount_cents" = 0 THEN
    RAISE EXCEPTION 'invalid ledger entry (kind %, actor %, amount %)', NEW."kind", NEW."actor", NEW."amount_cents"
      USING ERRCODE = 'check_violation';
  END IF;
  -- The table of the trigger's own schema, whatever the caller's search_path.
  IF NEW."kind" IN ('paid', 'reversed') THEN
    EXECUTE format('SELECT count(*) FROM %I.%I WHERE "commission_id" = $1 AND "kind" IN (''paid'', ''reversed'')', TG_TABLE_SCHEMA, TG_TABLE_NAME)
      INTO settled USING NEW."commission_id";
  END IF;
  IF settled > 0 THEN
    RAISE EXCEPTION 'commission % is already paid or reversed', NEW."commission_id" USING ERRCODE = 'unique_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "commission_entries_settled_once" BEFORE INSERT ON "commission_entries"
  FOR EACH ROW EXECUTE FUNCTION "check_commission_entry"();
