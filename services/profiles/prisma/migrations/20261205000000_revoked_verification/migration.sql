-- An administrator can revoke a workspace's verification: until an administrator approves it again, its domain
-- no longer verifies it.
ALTER TABLE "vendors" ADD COLUMN "revoked_at" TIMESTAMPTZ(3);
