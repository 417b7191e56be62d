-- Event ids are TEXT everywhere (the kit's processed_events too): the bus promises a string, not a UUID.
-- AlterTable
ALTER TABLE "enrichment_requests" ALTER COLUMN "event_id" SET DATA TYPE TEXT;
