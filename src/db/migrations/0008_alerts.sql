-- Alert rules on one universe each, and every time one fired. tracked_games exists since 0002.
CREATE TABLE alerts (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  team_id bigint NOT NULL REFERENCES teams (id),
  universe_id bigint NOT NULL REFERENCES games (universe_id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('ccu_spike', 'ccu_drop', 'trend_change', 'competitor', 'rank_change')),
  threshold double precision NOT NULL CHECK (threshold >= 0),
  -- What the rule watches until it first fires, then what happened last.
  message text NOT NULL,
  viewed boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  -- Engine state. armed: a level rule (ccu_spike, ccu_drop) may fire; it disarms when it fires and
  -- re-arms once its condition clears. state: the reference a change rule compares with (trend
  -- direction, genre rank, the competitors already ahead); null until the first evaluation.
  armed boolean NOT NULL DEFAULT true,
  state jsonb,
  -- Bumped on every engine write: an engine writes only the version it read, so when several
  -- workers evaluate at once exactly one of them records a firing.
  version integer NOT NULL DEFAULT 0,
  last_fired_at timestamptz
);
CREATE INDEX alerts_user_idx ON alerts (user_id, id);

CREATE TABLE alert_firings (
  id bigserial PRIMARY KEY,
  alert_id bigint NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
  fired_at timestamptz NOT NULL,
  message text NOT NULL,
  -- The figures behind the message (ccu, threshold, trend_score, rank, competitors …).
  details jsonb NOT NULL
);
CREATE INDEX alert_firings_alert_idx ON alert_firings (alert_id, fired_at DESC, id DESC);
