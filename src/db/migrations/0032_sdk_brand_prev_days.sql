-- The brand view's distinct players, counted like the errors view's (0031; analytics/rollup.source.ts,
-- PrevDay): each row of a zone's entries names its player's previous day with the zone and with any
-- zone; each row of an item's equips its player's previous day with the item and with any item, and
-- the next day with the item (a player's first row of a range with a next day in it equipped the
-- item on 2 or more days). Each on the row's platform and on every platform. The fold finds a
-- player's rows by the new indexes.
ALTER TABLE sdk_brand_zone_days ADD COLUMN prev_day date, ADD COLUMN prev_any date,
  ADD COLUMN player_prev_day date, ADD COLUMN player_prev_any date;
ALTER TABLE sdk_brand_equip_days ADD COLUMN prev_day date, ADD COLUMN prev_any date,
  ADD COLUMN next_day date, ADD COLUMN next_any date,
  ADD COLUMN player_prev_day date, ADD COLUMN player_prev_any date;

CREATE INDEX sdk_brand_zone_days_player_idx ON sdk_brand_zone_days (team_id, game_id, player_id);
CREATE INDEX sdk_brand_equip_days_player_idx ON sdk_brand_equip_days (team_id, game_id, player_id);

UPDATE sdk_brand_zone_days AS z
   SET prev_day = w.prev_day, prev_any = w.prev_any, player_prev_day = w.player_prev_day,
       player_prev_any = w.player_prev_any
  FROM (SELECT team_id, game_id, day, platform, player_id, zone_id,
               lag(day) OVER (PARTITION BY team_id, game_id, platform, player_id, zone_id ORDER BY day) AS prev_day,
               lag(day) OVER (PARTITION BY team_id, game_id, player_id, zone_id ORDER BY day, platform) AS prev_any,
               lag(day) OVER (PARTITION BY team_id, game_id, platform, player_id ORDER BY day, zone_id)
                 AS player_prev_day,
               lag(day) OVER (PARTITION BY team_id, game_id, player_id ORDER BY day, platform, zone_id)
                 AS player_prev_any
          FROM sdk_brand_zone_days) AS w
 WHERE z.team_id = w.team_id AND z.game_id = w.game_id AND z.day = w.day AND z.platform = w.platform
   AND z.player_id = w.player_id AND z.zone_id = w.zone_id
   AND ROW(w.prev_day, w.prev_any, w.player_prev_day, w.player_prev_any)
     IS DISTINCT FROM ROW(NULL::date, NULL::date, NULL::date, NULL::date);

UPDATE sdk_brand_equip_days AS e
   SET prev_day = w.prev_day, prev_any = w.prev_any, next_day = w.next_day, next_any = w.next_any,
       player_prev_day = w.player_prev_day, player_prev_any = w.player_prev_any
  FROM (SELECT team_id, game_id, day, platform, player_id, item_id,
               lag(day) OVER (PARTITION BY team_id, game_id, platform, player_id, item_id ORDER BY day) AS prev_day,
               lag(day) OVER (PARTITION BY team_id, game_id, player_id, item_id ORDER BY day, platform) AS prev_any,
               min(day) OVER (PARTITION BY team_id, game_id, platform, player_id, item_id ORDER BY day
                 RANGE BETWEEN '1 day'::interval FOLLOWING AND UNBOUNDED FOLLOWING) AS next_day,
               min(day) OVER (PARTITION BY team_id, game_id, player_id, item_id ORDER BY day
                 RANGE BETWEEN '1 day'::interval FOLLOWING AND UNBOUNDED FOLLOWING) AS next_any,
               lag(day) OVER (PARTITION BY team_id, game_id, platform, player_id ORDER BY day, item_id)
                 AS player_prev_day,
               lag(day) OVER (PARTITION BY team_id, game_id, player_id ORDER BY day, platform, item_id)
                 AS player_prev_any
          FROM sdk_brand_equip_days) AS w
 WHERE e.team_id = w.team_id AND e.game_id = w.game_id AND e.day = w.day AND e.platform = w.platform
   AND e.player_id = w.player_id AND e.item_id = w.item_id
   AND ROW(w.prev_day, w.prev_any, w.next_day, w.next_any, w.player_prev_day, w.player_prev_any)
     IS DISTINCT FROM ROW(NULL::date, NULL::date, NULL::date, NULL::date, NULL::date, NULL::date);
