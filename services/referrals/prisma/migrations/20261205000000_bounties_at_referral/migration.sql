-- A referral keeps the vendor's bounties of the moment it was made: each milestone pays the better of these and
-- the vendor's bounties at confirmation (termsOf of @app/domain), so lowering a bounty no longer lowers what the
-- referrals already made were told they would earn.
ALTER TABLE "referrals" ADD COLUMN "bounties_at_referral" JSONB;

-- The referrals made before did not keep theirs: today's bounties of their verified workspace are the best
-- known of what they were told, and are kept from now on.
UPDATE "referrals" r SET "bounties_at_referral" = vb."bounties"
  FROM "vendor_bounties" vb JOIN "vendors" v ON v."id" = vb."vendor_id" AND v."verified"
 WHERE vb."vendor_id" = r."vendor_id";
