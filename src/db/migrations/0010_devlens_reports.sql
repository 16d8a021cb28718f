-- Dev Lens reports a user chose to keep (POST /api/dev-lens/analyze?save=true). Only the computed
-- result is stored: the uploaded file is analysed in memory and never written anywhere.
CREATE TABLE devlens_reports (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  team_id bigint NOT NULL REFERENCES teams (id),
  file_type text NOT NULL,
  -- The genre the benchmarks used ('all' when none was chosen).
  genre text NOT NULL,
  result jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX devlens_reports_user_idx ON devlens_reports (user_id, created_at DESC, id DESC);
