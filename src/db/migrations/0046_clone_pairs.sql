-- Clone pairs (src/intelligence): pairs of same-genre games the clone detector of game detail
-- (src/games/clones.ts: name or description similarity >= 0.8) finds, stored as the market is
-- collected so lists and the feed read them, with when each pair was first detected.
--
-- The original is the game created first (a game without a creation date comes after every dated
-- one); on a tie the busier one (latest CCU), then the lower universe id.
CREATE TABLE clone_pairs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  original_universe_id bigint NOT NULL REFERENCES games (universe_id) ON DELETE CASCADE,
  clone_universe_id bigint NOT NULL REFERENCES games (universe_id) ON DELETE CASCADE,
  -- The clone's genre when detected (both games share it: the detector compares within a genre).
  genre text NOT NULL,
  -- Jaccard similarity of the clone keys' trigrams, 0-1.
  name_similarity double precision NOT NULL,
  -- Of the descriptions without the games' own names; null when either is under 20 words.
  description_similarity double precision,
  similarity double precision NOT NULL,
  same_creator boolean NOT NULL,
  -- clone.created_at - original.created_at in days (>= 0); null when either date is unknown.
  creation_gap_days double precision,
  -- When a detection run first found the pair (kept when later runs find it again).
  detected_at timestamptz NOT NULL,
  -- When a run last confirmed it (the evidence is from that run).
  checked_at timestamptz NOT NULL,
  CHECK (original_universe_id <> clone_universe_id)
);
CREATE UNIQUE INDEX clone_pairs_pair_key ON clone_pairs (original_universe_id, clone_universe_id);
CREATE INDEX clone_pairs_clone_idx ON clone_pairs (clone_universe_id);
CREATE INDEX clone_pairs_recent_idx ON clone_pairs (detected_at DESC, id DESC);
CREATE INDEX clone_pairs_genre_recent_idx ON clone_pairs (genre, detected_at DESC, id DESC);

-- What each game's clones were last looked for with: md5 of the rules' version, genre, name and
-- description, so a run checks only games that are new or whose text or genre changed.
CREATE TABLE clone_checks (
  universe_id bigint PRIMARY KEY REFERENCES games (universe_id) ON DELETE CASCADE,
  text_hash text NOT NULL,
  checked_at timestamptz NOT NULL
);
