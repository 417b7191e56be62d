-- AlterTable
ALTER TABLE "users" ADD COLUMN     "sign_up_notice_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "login_failures" (
    "email" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "locked_until" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "login_failures_pkey" PRIMARY KEY ("email")
);

-- CreateIndex
CREATE INDEX "login_failures_updated_at_idx" ON "login_failures"("updated_at");
