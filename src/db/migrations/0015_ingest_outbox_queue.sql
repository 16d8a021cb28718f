-- The outbox is the embedded ingest queue (no NATS): the writer claims the oldest rows with
-- FOR UPDATE SKIP LOCKED, moves their events into `events` and deletes them in one transaction, so
-- several writers (serve and worker processes on one PostgreSQL) share it and a crash loses
-- nothing. `events` is the batch's event count: the queue depth (backpressure) is their sum,
-- without parsing any JSON. Rows written before this column existed count as 0 until stored.
ALTER TABLE ingest_outbox ADD COLUMN events integer NOT NULL DEFAULT 0;
