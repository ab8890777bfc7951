-- W3C traceparent of the request that made the change, continued by the relay and consumers (ADR 0019).
ALTER TABLE "outbox_messages" ADD COLUMN "trace_parent" TEXT;
