-- Engagement (src/analytics/views/engagement.repo.ts): rolling WAU and MAU walk each player's
-- active days in order (lead(day) per player). This index hands them over already in that order,
-- so the read is an index-only scan with no sort of every player-day of the range; platform is
-- included so a platform filter stays index-only.
CREATE INDEX sdk_player_days_player_order_idx
  ON sdk_player_days (team_id, game_id, player_id, day) INCLUDE (platform);
