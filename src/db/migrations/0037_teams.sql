-- Teams and roles, invitations, and the append-only audit log.
--
-- Every user keeps the personal team created with the account (teams.personal); Enterprise users
-- can create shared teams and invite others. Membership and role live in team_members, one row per
-- (team, user), for personal teams too (their user is the owner), so "what may this user do in this
-- team" is one lookup everywhere. A team has exactly one owner (partial unique index); its plan is
-- its owner's.
ALTER TABLE teams ADD COLUMN personal boolean NOT NULL DEFAULT false;
-- Seats of a shared team: null = the plan's number (ENTITLEMENTS teamSeats); a service admin can
-- set one per team.
ALTER TABLE teams ADD COLUMN seats integer CHECK (seats IS NULL OR seats BETWEEN 1 AND 10000);
UPDATE teams SET personal = true;

CREATE TABLE team_members (
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
  joined_at timestamptz NOT NULL,
  PRIMARY KEY (team_id, user_id)
);
CREATE UNIQUE INDEX team_members_one_owner ON team_members (team_id) WHERE role = 'owner';
CREATE INDEX team_members_user_idx ON team_members (user_id);
INSERT INTO team_members (team_id, user_id, role, joined_at)
  SELECT team_id, id, 'owner', created_at FROM users;

-- Invitations by e-mail: the SHA-256 of a single-use token (7 days); accepted, revoked or expired
-- ones stay as history until the daily purge.
CREATE TABLE team_invites (
  id bigserial PRIMARY KEY,
  team_id bigint NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  email text NOT NULL CHECK (email = lower(email)),
  role text NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
  token_hash text NOT NULL,
  invited_by bigint REFERENCES users (id) ON DELETE SET NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by bigint REFERENCES users (id) ON DELETE SET NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX team_invites_hash_key ON team_invites (token_hash);
CREATE INDEX team_invites_team_idx ON team_invites (team_id, id);

-- Team resources: tracked games and webhooks gain the team they belong to (the personal team of
-- their user until now); user_id stays as who created them. Everything a team owns goes with it.
ALTER TABLE tracked_games ADD COLUMN team_id bigint REFERENCES teams (id) ON DELETE CASCADE;
UPDATE tracked_games t SET team_id = u.team_id FROM users u WHERE u.id = t.user_id;
ALTER TABLE tracked_games ALTER COLUMN team_id SET NOT NULL;
ALTER TABLE tracked_games DROP CONSTRAINT tracked_games_pkey;
ALTER TABLE tracked_games ADD PRIMARY KEY (team_id, universe_id);
CREATE INDEX tracked_games_user_idx ON tracked_games (user_id);

ALTER TABLE webhooks ADD COLUMN team_id bigint REFERENCES teams (id) ON DELETE CASCADE;
UPDATE webhooks w SET team_id = u.team_id FROM users u WHERE u.id = w.user_id;
ALTER TABLE webhooks ALTER COLUMN team_id SET NOT NULL;
CREATE INDEX webhooks_team_idx ON webhooks (team_id, id);

ALTER TABLE alerts DROP CONSTRAINT alerts_team_id_fkey;
ALTER TABLE alerts ADD CONSTRAINT alerts_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE;
CREATE INDEX alerts_team_idx ON alerts (team_id, id);
ALTER TABLE devlens_reports DROP CONSTRAINT devlens_reports_team_id_fkey;
ALTER TABLE devlens_reports ADD CONSTRAINT devlens_reports_team_id_fkey
  FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE;
CREATE INDEX devlens_reports_team_idx ON devlens_reports (team_id, created_at DESC, id DESC);
ALTER TABLE api_keys DROP CONSTRAINT api_keys_team_id_fkey;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_team_id_fkey FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE;
CREATE INDEX api_keys_team_idx ON api_keys (team_id, id);

-- The audit log: who did what, when, from where, with before/after where it applies. Append-only:
-- the code has no UPDATE or DELETE of it, and the triggers below refuse both (and TRUNCATE) for
-- every role. team_id and actor_id carry no foreign key, so the history outlives deleted teams and
-- users; actor_email is the address at the time.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  team_id bigint,
  actor_id bigint,
  actor_email text,
  action text NOT NULL,
  target_type text,
  target_id text,
  ip text,
  user_agent text,
  before jsonb,
  after jsonb
);
CREATE INDEX audit_log_team_idx ON audit_log (team_id, id DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, id DESC);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
