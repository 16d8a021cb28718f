-- SDK analytics segments (src/analytics/segments.*): named player sets defined by conditions on
-- events. Membership is never stored: it depends on the range a view reads, so it is computed
-- from the raw events on each request (segments.repo.ts).
CREATE TABLE sdk_segments (
  id bigserial PRIMARY KEY,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- The checked conditions as sent ([{field, op, value?}], see src/analytics/conditions.ts).
  conditions jsonb NOT NULL,
  match text NOT NULL CHECK (match IN ('all', 'any')),
  -- Only events of this type can match; null: any type.
  event_type text,
  created_at timestamptz NOT NULL
);

-- The team's segments, newest first (and the per-team cap count).
CREATE INDEX sdk_segments_team_idx ON sdk_segments (team_id, created_at DESC, id DESC);
