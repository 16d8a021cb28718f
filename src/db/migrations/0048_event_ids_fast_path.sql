-- The durable dedupe (event_ids) is on every accepted event's path: each one inserts a key into
-- its primary key, at a random place (event ids are UUIDs or other random strings). Two changes,
-- measured on PostgreSQL 15 with 1,000,000 random UUIDs:
--
-- 1. The column compares bytes (COLLATE "C"). Under the database's default collation every
--    comparison on the way down the B-tree is a locale comparison (strcoll, for C.UTF-8 and
--    en_US.UTF-8 alike); only the equality of ids matters here, never their order, and equal ids
--    are equal under either. The request's insert took 8.0 s under C.UTF-8 and 6.4 s under "C".
--    The primary key is rebuilt (the table is not rewritten): on a large table this holds the
--    table's lock for the rebuild, so run it (svc migrate) before the new processes start, as for
--    every upgrade.
ALTER TABLE event_ids ALTER COLUMN event_id TYPE text COLLATE "C";

-- 2. A batch's ids are inserted plainly first. Nearly every batch is new; ON CONFLICT DO NOTHING
--    RETURNING checks each key for a conflict before inserting it and hands every new id back:
--    6.9 s plain against 9.5 s that way (logged tables, collation "C"). When an id is already
--    there (a retried batch), the plain insert fails, its subtransaction is undone, and the batch
--    is inserted the careful way. Returns NULL when every id was new, else the ids that were.
--    The ids of one batch are distinct (the request drops repeats before).
CREATE FUNCTION svc_insert_event_ids(p_team bigint, p_ids text[], p_at timestamptz)
RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  fresh text[];
BEGIN
  BEGIN
    INSERT INTO event_ids (team_id, event_id, received_at)
    SELECT p_team, id, p_at FROM unnest(p_ids) AS id;
    RETURN NULL;
  EXCEPTION WHEN unique_violation THEN
    -- Some id was seen before: the plain insert is undone, and the new ids are kept below.
  END;
  WITH ins AS (
    INSERT INTO event_ids (team_id, event_id, received_at)
    SELECT p_team, id, p_at FROM unnest(p_ids) AS id
    ON CONFLICT DO NOTHING
    RETURNING event_id
  )
  SELECT coalesce(array_agg(event_id), '{}') INTO fresh FROM ins;
  RETURN fresh;
END
$$;
