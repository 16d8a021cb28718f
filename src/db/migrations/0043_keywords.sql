-- Keyword intelligence (src/keywords): the words and two-word phrases of each game's title and
-- description (extracted again when the text changes), and the trending lists computed from them
-- once per UTC day, per period and genre ('' = every genre).
CREATE TABLE game_keywords (
  keyword text NOT NULL,
  universe_id bigint NOT NULL REFERENCES games (universe_id) ON DELETE CASCADE,
  in_title boolean NOT NULL,
  PRIMARY KEY (keyword, universe_id)
);
CREATE INDEX game_keywords_universe_idx ON game_keywords (universe_id);

-- What each game's keywords were extracted from: md5 of the extraction rules' version, the name and
-- the description, so a run re-extracts only the games whose text changed.
CREATE TABLE game_keyword_sources (
  universe_id bigint PRIMARY KEY REFERENCES games (universe_id) ON DELETE CASCADE,
  text_hash text NOT NULL,
  extracted_at timestamptz NOT NULL
);

CREATE TABLE keyword_trends (
  period_days integer NOT NULL,
  genre text NOT NULL,
  keyword text NOT NULL,
  -- The last complete UTC day of the period the row measures.
  through_day date NOT NULL,
  computed_at timestamptz NOT NULL,
  games integer NOT NULL,
  title_games integer NOT NULL,
  demand double precision NOT NULL,
  previous_demand double precision NOT NULL,
  growth double precision,
  demand_per_game double precision NOT NULL,
  top3_share double precision NOT NULL,
  newcomer_share double precision NOT NULL,
  score integer NOT NULL,
  -- Positions in each sort order (1 = first), so a page is a range read.
  rank_score integer NOT NULL,
  rank_demand integer NOT NULL,
  rank_growth integer NOT NULL,
  PRIMARY KEY (period_days, genre, keyword)
);
CREATE INDEX keyword_trends_score_idx ON keyword_trends (period_days, genre, rank_score);
CREATE INDEX keyword_trends_demand_idx ON keyword_trends (period_days, genre, rank_demand);
CREATE INDEX keyword_trends_growth_idx ON keyword_trends (period_days, genre, rank_growth);
