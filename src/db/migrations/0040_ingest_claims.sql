-- Async ingest on JetStream: the stream is the durable store of an accepted batch's rows; this
-- table only says whether a message's batch was accepted. The request inserts its claim (state
-- 'queued') before it publishes, in the transaction that dedupes and charges the batch. The writer
-- upserts every claim it was handed (INSERT ... ON CONFLICT, which waits for a request still in
-- progress): a 'queued' claim is its to store; a claim it had to insert belongs to a request that
-- rolled back (or a batch stored before), so the message is dropped. Then it deletes the claims,
-- in the same transaction as the events: the table only ever holds batches in flight.
CREATE TABLE ingest_claims (
  id bigint PRIMARY KEY,
  state text NOT NULL CHECK (state IN ('queued', 'void')),
  events integer NOT NULL CHECK (events >= 0),
  created_at timestamptz NOT NULL
);
