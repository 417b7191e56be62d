-- When the user's address was verified (the occurredAt of the user.email_verified event that set it): an older
-- event, delivered again after a newer one (a retry), no longer puts an older address back on the copy.
ALTER TABLE "users" ADD COLUMN "email_at" TIMESTAMPTZ(3);
