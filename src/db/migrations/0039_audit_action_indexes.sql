-- The audit log's action filter reads newest first within a team (GET /api/team/audit?action=)
-- and across teams (GET /api/admin/audit?action=): without these, a rare action scanned every
-- entry of the team (1.3 s at 100,000 entries in bench/teams.bench.ts).
CREATE INDEX audit_log_team_action_idx ON audit_log (team_id, action, id DESC);
CREATE INDEX audit_log_action_idx ON audit_log (action, id DESC);
