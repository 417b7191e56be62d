-- Products learnt from referrals are shown to every user who searches them: they no longer keep the
-- referral's description, the referrer's own text (one user's words never reach another user's referral or
-- draft). The descriptions kept so far are cleared: nobody can tell which referrer typed them.
UPDATE "known_products" SET "description" = '' WHERE "description" <> '';
