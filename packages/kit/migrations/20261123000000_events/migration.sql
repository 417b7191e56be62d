-- The event plumbing every service that owns data has, defined once (packages/kit) and applied into each
-- service's schema after its own migrations. Services created before this existed already have both tables
-- from their own first migration: IF NOT EXISTS keeps them, and the ALTER makes event ids TEXT everywhere.

-- Events written in the same transaction as the change they announce; the outbox relay publishes them.
CREATE TABLE IF NOT EXISTS "outbox_events" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "request_id" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "published_at" TIMESTAMPTZ(3),
    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX IF NOT EXISTS "outbox_events_published_at_occurred_at_idx" ON "outbox_events" ("published_at", "occurred_at");
-- The relay only ever looks for what is not yet published.
CREATE INDEX IF NOT EXISTS "outbox_events_unpublished_idx" ON "outbox_events" ("occurred_at", "id") WHERE "published_at" IS NULL;

-- Events a subscriber has handled, claimed in the same transaction as the handler's writes.
CREATE TABLE IF NOT EXISTS "processed_events" (
    "subscriber" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("subscriber", "event_id")
);
ALTER TABLE "processed_events" ALTER COLUMN "event_id" TYPE TEXT;
CREATE INDEX IF NOT EXISTS "processed_events_processed_at_idx" ON "processed_events" ("processed_at");
