-- Programs belong to a vendor workspace (issue 9). The free-text company names typed before workspaces
-- existed are kept, renamed to a hint (shown and matched while a program is unlinked), never turned into a
-- link: a name proves nothing. Every existing program starts unlinked until an administrator links it.
ALTER TABLE "programs" RENAME COLUMN "company_name" TO "company_hint";
ALTER TABLE "programs" ADD COLUMN "vendor_id" TEXT;

-- CreateTable
CREATE TABLE "vendors" (
    "id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "verified" BOOLEAN NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vendors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vendor_members" (
    "vendor_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,

    CONSTRAINT "vendor_members_pkey" PRIMARY KEY ("vendor_id","user_id")
);

-- CreateIndex
CREATE INDEX "vendor_members_user_id_idx" ON "vendor_members"("user_id");

-- CreateIndex
CREATE INDEX "programs_vendor_id_idx" ON "programs"("vendor_id");

-- AddForeignKey
ALTER TABLE "vendor_members" ADD CONSTRAINT "vendor_members_vendor_id_fkey" FOREIGN KEY ("vendor_id") REFERENCES "vendors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
