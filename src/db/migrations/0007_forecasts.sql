-- Per-game CCU forecasts, recomputed daily (04:00 UTC) and after a backfill, served from here.
CREATE TABLE forecasts (
  universe_id bigint PRIMARY KEY REFERENCES games (universe_id) ON DELETE CASCADE,
  generated_at timestamptz NOT NULL,
  model_version text NOT NULL,
  -- The last complete UTC day of history the forecast saw, and how many days it had.
  last_day date NOT NULL,
  history_days integer NOT NULL,
  -- [{date, point, lower, upper, log_mean, log_sd}], the first day after last_day first.
  points json NOT NULL,
  -- P(CCU 7 days after today > today's mean CCU), from the predictive distribution.
  growth_probability real
);

-- Each batch run of the forecaster (when it ran, how many games, how long it took).
CREATE TABLE forecast_runs (
  id serial PRIMARY KEY,
  ran_at timestamptz NOT NULL,
  games integer NOT NULL,
  skipped integer NOT NULL,
  ms integer NOT NULL
);
