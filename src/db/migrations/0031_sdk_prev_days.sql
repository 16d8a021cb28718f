-- "Previous day" columns (analytics/rollup.source.ts, PrevDay): each row names the day of the row
-- before it in its entity's order (by day, then a tie-break among one day's rows), null on the
-- entity's first. A range's rows whose column is null or before the range are then one per entity
-- with a row in it, so a view counts distinct sessions or players over any range in one scan,
-- without hashing or sorting every one of them. The rollup fold keeps them; rows already there get
-- them here.

-- Sessions (the crashes view's crash-free sessions): the session's previous day with events.
ALTER TABLE sdk_session_days ADD COLUMN prev_day date;

UPDATE sdk_session_days AS s SET prev_day = w.prev
  FROM (SELECT team_id, game_id, platform, player_id, session_id, day,
               lag(day) OVER (PARTITION BY team_id, game_id, platform, player_id, session_id ORDER BY day) AS prev
          FROM sdk_session_days) AS w
 WHERE w.prev IS NOT NULL AND s.team_id = w.team_id AND s.game_id = w.game_id AND s.platform = w.platform
   AND s.player_id = w.player_id AND s.session_id = w.session_id AND s.day = w.day;

-- Errors (players affected): per group (severity, source, prefix) and per severity, each on the
-- row's platform and on every platform. The fold finds a player's rows by this index.
ALTER TABLE sdk_error_days ADD COLUMN prev_day date, ADD COLUMN prev_any date,
  ADD COLUMN severity_prev_day date, ADD COLUMN severity_prev_any date;

CREATE INDEX sdk_error_days_player_idx ON sdk_error_days (team_id, game_id, player_id, severity);

UPDATE sdk_error_days AS e
   SET prev_day = w.prev_day, prev_any = w.prev_any, severity_prev_day = w.severity_prev_day,
       severity_prev_any = w.severity_prev_any
  FROM (SELECT team_id, game_id, day, platform, player_id, severity, source, prefix,
               lag(day) OVER (PARTITION BY team_id, game_id, platform, player_id, severity, source, prefix
                              ORDER BY day) AS prev_day,
               lag(day) OVER (PARTITION BY team_id, game_id, player_id, severity, source, prefix
                              ORDER BY day, platform) AS prev_any,
               lag(day) OVER (PARTITION BY team_id, game_id, platform, player_id, severity
                              ORDER BY day, source, prefix) AS severity_prev_day,
               lag(day) OVER (PARTITION BY team_id, game_id, player_id, severity
                              ORDER BY day, platform, source, prefix) AS severity_prev_any
          FROM sdk_error_days) AS w
 WHERE e.team_id = w.team_id AND e.game_id = w.game_id AND e.day = w.day AND e.platform = w.platform
   AND e.player_id = w.player_id AND e.severity = w.severity AND e.source = w.source AND e.prefix = w.prefix
   AND ROW(w.prev_day, w.prev_any, w.severity_prev_day, w.severity_prev_any) IS DISTINCT FROM ROW(NULL::date, NULL::date, NULL::date, NULL::date);
