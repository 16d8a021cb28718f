-- The crashes view's crash-free sessions count the distinct sessions (platform, player, session) of
-- a range of sdk_session_days (views/crashes.repo.ts sessionsPerPoint). The primary key leads with
-- the day, so that distinct hashed every session-day of the range (spilling to disk at 90 days);
-- in this order it is read off the index, each session's days next to each other, without a hash.
CREATE INDEX sdk_session_days_session_idx
  ON sdk_session_days (team_id, game_id, platform, player_id, session_id, day);
