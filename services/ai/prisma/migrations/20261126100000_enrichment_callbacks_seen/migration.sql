-- Enrichment callbacks are signed with a timestamp; the signatures accepted in the last minutes are kept
-- so that a copy of a callback (a replay) is refused (issue 11).
-- CreateTable
CREATE TABLE "enrichment_callbacks_seen" (
    "signature" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "enrichment_callbacks_seen_pkey" PRIMARY KEY ("signature")
);

-- CreateIndex
CREATE INDEX "enrichment_callbacks_seen_expires_at_idx" ON "enrichment_callbacks_seen"("expires_at");
