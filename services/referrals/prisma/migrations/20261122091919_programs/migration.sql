-- CreateTable
CREATE TABLE "programs" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "reward_details" TEXT NOT NULL,
    "company_name" TEXT,
    "company_key" TEXT,
    "is_active" BOOLEAN NOT NULL,
    "saved_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "programs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "programs_company_key_idx" ON "programs"("company_key");

-- CreateIndex
CREATE INDEX "programs_name_key_idx" ON "programs"("name_key");
