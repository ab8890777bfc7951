-- W3C traceparent of the consumer span that recorded the event: each delivery attempt continues that trace (ADR 0019).
ALTER TABLE "webhook_events" ADD COLUMN "trace_parent" TEXT;
