-- Issue 9: vendors become workspaces (members, invitations, audit); lead criteria and bounties belong to a
-- workspace. Each user's existing criteria/bounties become an unverified workspace that user owns, named
-- after their company, with no domain until they set the website; they claim it by verifying.

-- AlterTable: the verified address (user.email_verified) and the names members are shown with.
ALTER TABLE "users" ADD COLUMN     "email_verified" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "first_name" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "last_name" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "vendors" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "domain" TEXT NOT NULL DEFAULT '',
    "verified_domain" TEXT,
    "company_key" TEXT NOT NULL DEFAULT '',
    "lead_inbox" TEXT NOT NULL DEFAULT '',
    "verified_at" TIMESTAMPTZ(3),
    "verification_method" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vendors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vendor_members" (
    "vendor_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vendor_members_pkey" PRIMARY KEY ("vendor_id","user_id")
);

-- CreateTable
CREATE TABLE "vendor_invitations" (
    "id" UUID NOT NULL,
    "vendor_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "invited_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "accepted_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "vendor_invitations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vendor_audit" (
    "id" BIGSERIAL NOT NULL,
    "vendor_id" UUID NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vendor_audit_pkey" PRIMARY KEY ("id")
);

-- Carry over: one workspace per author of criteria or bounties.
CREATE TEMPORARY TABLE "carried_vendors" AS
SELECT s."user_id", gen_random_uuid() AS "vendor_id", min(s."created_at") AS "created_at"
FROM (
    SELECT "user_id", "created_at" FROM "lead_criteria"
    UNION ALL
    SELECT "user_id", "created_at" FROM "bounties"
) s
GROUP BY s."user_id";

-- An author whose user.registered never arrived still needs a user row to be a member (address unknown).
INSERT INTO "users" ("user_id", "email")
SELECT c."user_id", '' FROM "carried_vendors" c
WHERE NOT EXISTS (SELECT 1 FROM "users" u WHERE u."user_id" = c."user_id");

-- The company key is lower-cased with spaces collapsed here; the service rewrites it with companyKey()
-- (legal suffixes stripped) whenever it writes the workspace, and only verified workspaces are announced.
INSERT INTO "vendors" ("id", "name", "company_key", "created_at", "updated_at")
SELECT c."vendor_id",
       COALESCE(NULLIF(btrim(u."company_name"), ''), 'My company'),
       lower(regexp_replace(btrim(u."company_name"), '\s+', ' ', 'g')),
       c."created_at",
       c."created_at"
FROM "carried_vendors" c JOIN "users" u ON u."user_id" = c."user_id";

INSERT INTO "vendor_members" ("vendor_id", "user_id", "role", "joined_at")
SELECT "vendor_id", "user_id", 'owner', "created_at" FROM "carried_vendors";

INSERT INTO "vendor_audit" ("vendor_id", "actor", "action", "note", "at")
SELECT "vendor_id", 'Referral Hub', 'created',
       'Carried over from the lead criteria and bounties saved before vendor workspaces existed', "created_at"
FROM "carried_vendors";

-- AlterTable: lead criteria belong to the workspace; the author is kept as who saved them last.
ALTER TABLE "lead_criteria" ADD COLUMN     "updated_by" TEXT,
ADD COLUMN     "vendor_id" UUID,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;
UPDATE "lead_criteria" l SET "vendor_id" = c."vendor_id", "updated_by" = l."user_id"
FROM "carried_vendors" c WHERE c."user_id" = l."user_id";
ALTER TABLE "lead_criteria" DROP CONSTRAINT "lead_criteria_pkey",
DROP COLUMN "user_id",
ALTER COLUMN "updated_by" SET NOT NULL,
ALTER COLUMN "vendor_id" SET NOT NULL,
ADD CONSTRAINT "lead_criteria_pkey" PRIMARY KEY ("vendor_id");

-- AlterTable: the same for bounties.
ALTER TABLE "bounties" ADD COLUMN     "updated_by" TEXT,
ADD COLUMN     "vendor_id" UUID,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;
UPDATE "bounties" b SET "vendor_id" = c."vendor_id", "updated_by" = b."user_id"
FROM "carried_vendors" c WHERE c."user_id" = b."user_id";
ALTER TABLE "bounties" DROP CONSTRAINT "bounties_pkey",
DROP COLUMN "user_id",
ALTER COLUMN "updated_by" SET NOT NULL,
ALTER COLUMN "vendor_id" SET NOT NULL,
ADD CONSTRAINT "bounties_pkey" PRIMARY KEY ("vendor_id");

DROP TABLE "carried_vendors";

-- CreateIndex
CREATE UNIQUE INDEX "vendors_verified_domain_key" ON "vendors"("verified_domain");

-- CreateIndex
CREATE INDEX "vendors_domain_idx" ON "vendors"("domain");

-- CreateIndex
CREATE INDEX "vendors_company_key_idx" ON "vendors"("company_key");

-- CreateIndex
CREATE INDEX "vendor_members_user_id_idx" ON "vendor_members"("user_id");

-- CreateIndex
CREATE INDEX "vendor_invitations_vendor_id_idx" ON "vendor_invitations"("vendor_id");

-- CreateIndex
CREATE INDEX "vendor_invitations_email_idx" ON "vendor_invitations"("email");

-- CreateIndex
CREATE INDEX "vendor_audit_vendor_id_id_idx" ON "vendor_audit"("vendor_id", "id");

-- AddForeignKey
ALTER TABLE "vendor_members" ADD CONSTRAINT "vendor_members_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vendor_members" ADD CONSTRAINT "vendor_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("user_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vendor_invitations" ADD CONSTRAINT "vendor_invitations_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vendor_audit" ADD CONSTRAINT "vendor_audit_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lead_criteria" ADD CONSTRAINT "lead_criteria_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bounties" ADD CONSTRAINT "bounties_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
