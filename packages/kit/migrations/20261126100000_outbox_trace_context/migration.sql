-- The trace context (W3C traceparent/tracestate) of the work that emitted the event, when tracing is on:
-- the relay publishes the event under it, so consumers join the same trace. Kept out of the signed envelope.
ALTER TABLE "outbox_events" ADD COLUMN IF NOT EXISTS "trace_context" JSONB;
