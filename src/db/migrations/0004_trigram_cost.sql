-- pg_trgm declares its word-similarity operators as cheap, so at tens of thousands of games the
-- planner prefers reading every row to the trigram index behind game search (about 110 ms against
-- 3 ms at 50,000 games). Tell it what they really cost. Changing an extension's function needs its
-- owner; where the database user is not, search still works, only slower, so do not fail start-up.
DO $$
BEGIN
  ALTER FUNCTION word_similarity_op(text, text) COST 100;
  ALTER FUNCTION word_similarity_commutator_op(text, text) COST 100;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'pg_trgm operator costs left as they are (not the owner)';
END
$$;
