/**
 * Teams: shared teams with seats, four roles (roles.ts: the permission table every check reads),
 * invitations by e-mail, ownership transfer, renaming and deletion, and the membership lookup the
 * auth guard uses to act in a team (X-Team-Id). Owns teams' shared rows, team_members and
 * team_invites; every personal team is created by accounts with its user.
 */
import type { FastifyInstance } from 'fastify';
import { registerTeamRoutes, teamSchemas } from './teams.routes.js';
import { type TeamsDeps, TeamsService } from './teams.service.js';

export { INVITE_TTL_MS, inviteMail, TeamsService } from './teams.service.js';

export function createTeams(deps: TeamsDeps): TeamsService {
  return new TeamsService(deps);
}

export function registerTeams(app: FastifyInstance, teams: TeamsService): void {
  for (const schema of teamSchemas) app.addSchema(schema);
  registerTeamRoutes(app, teams);
}
