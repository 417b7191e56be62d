-- Issue 11: quotas on intro email recipients. One row per intro email sent, with how many recipients it
-- reached; a user's recipients per rolling hour and day are summed from these rows before the next send.
CREATE TABLE "intro_sends" (
    "referral_id" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "recipients" INTEGER NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "intro_sends_pkey" PRIMARY KEY ("referral_id")
);

CREATE INDEX "intro_sends_user_id_sent_at_idx" ON "intro_sends"("user_id", "sent_at");
