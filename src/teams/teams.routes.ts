/**
 * /api/team/*: the team the request acts in comes from X-Team-Id (the caller's personal team
 * without it), as for every team resource; the auth guard checks the role's permission
 * (roles.ts) and that the team is on Enterprise before a handler runs.
 */
import { Type } from 'typebox';
import { actorOf } from '../audit/index.js';
import { type App, requireUser } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import type { Principal, UserPrincipal } from '../identity.js';
import { TEAM_PLAN } from '../plans.js';
import type { Permission, Role } from '../roles.js';
import {
  AcceptBody,
  CreateTeamBody,
  Invite,
  InviteBody,
  InviteIdParams,
  Membership,
  MembershipList,
  RenameTeamBody,
  RoleBody,
  SeatsBody,
  Team,
  TeamIdParams,
  TransferBody,
  UserIdParams,
} from './teams.schemas.js';
import type { TeamsService } from './teams.service.js';

const tags = ['team'];
const OK = (status: string) => Type.Object({ status: Type.Literal(status) });
const inTeam = (permission: Permission) => ({
  access: { auth: 'user' as const, plan: TEAM_PLAN, feature: 'Teams', team: permission },
});

/** The signed-in caller of a team route, with the role the guard found (AccessRule.team). */
function member(principal: Principal): UserPrincipal & { role: Role } {
  const p = requireUser(principal);
  if (p.role === undefined) throw new Error('a team route without AccessRule.team: no role was resolved');
  return { ...p, role: p.role };
}

export function registerTeamRoutes(app: App, teams: TeamsService): void {
  app.get(
    '/api/team/memberships',
    {
      config: { access: { auth: 'user' } },
      schema: {
        tags,
        summary: 'The teams you are in (your personal team first): for the team switcher',
        description:
          'Open to every signed-in user, whatever their own plan: an invitee on Explorer sees the Enterprise team they joined. ' +
          "Send a team's id as X-Team-Id to act in it.",
        response: { 200: MembershipList },
      },
    },
    async (request) => ({ teams: await teams.memberships(requireUser(request.principal).userId) }),
  );

  app.post(
    '/api/team',
    {
      config: { access: { auth: 'user', plan: TEAM_PLAN, feature: 'Teams' } },
      schema: {
        tags,
        summary: 'Create a shared team (you become its owner)',
        description: `Needs your own Enterprise plan. Seats come from the plan (Enterprise: 25 by default; a service administrator can change one team's). At most 10 owned teams (409 limit_reached).`,
        body: CreateTeamBody,
        response: { 201: Type.Ref('Team'), ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const actor = { ...actorOf(request), userId: requireUser(request.principal).userId };
      return reply.code(201).send(await teams.create(actor, request.body.name.trim()));
    },
  );

  app.get(
    '/api/team',
    {
      config: inTeam('team.read'),
      schema: {
        tags,
        summary: 'The team: name, status, seats, members, pending invitations and your permissions',
        response: { 200: Type.Ref('Team') },
      },
    },
    async (request) => {
      const p = member(request.principal);
      return teams.detail(p.teamId, p.role);
    },
  );

  app.patch(
    '/api/team',
    {
      config: inTeam('settings.manage'),
      schema: {
        tags,
        summary: 'Rename the team (owner, admin)',
        body: RenameTeamBody,
        response: { 200: Type.Ref('Team'), ...errorResponses(409, 422) },
      },
    },
    async (request) => {
      const p = member(request.principal);
      await teams.rename(p.teamId, actorOf(request), request.body.name.trim());
      return teams.detail(p.teamId, p.role);
    },
  );

  app.delete(
    '/api/team',
    {
      config: inTeam('team.delete'),
      schema: {
        tags,
        summary: 'Delete the team and everything it owns (owner)',
        description:
          "One transaction: the team's tracked games, alerts, webhooks, Dev Lens reports, API keys, SDK events and analytics, members and invitations go, or nothing does. The audit log keeps its entries. A personal team cannot be deleted (409 personal_team).",
        response: { 200: OK('deleted'), ...errorResponses(409) },
      },
    },
    async (request) => {
      await teams.remove(requireUser(request.principal).teamId, actorOf(request));
      return { status: 'deleted' as const };
    },
  );

  app.post(
    '/api/team/invites',
    {
      config: inTeam('members.manage'),
      schema: {
        tags,
        summary: 'Invite someone by e-mail (owner, admin)',
        description:
          'Mails a single-use link (7 days) to /team/accept?token=… through the account mail path (SMTP, or the outbox table). ' +
          'A new invitation to the same address replaces the earlier one. 409 already_member, 409 team_full when every seat is taken ' +
          '(invitations do not hold seats: accepting takes one), 409 personal_team on a personal team.',
        body: InviteBody,
        response: { 201: Invite, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const p = requireUser(request.principal);
      const created = await teams.invite(p.teamId, { ...actorOf(request), userId: p.userId }, request.body);
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/api/team/invites/:invite_id',
    {
      config: inTeam('members.manage'),
      schema: {
        tags,
        summary: 'Cancel a pending invitation (owner, admin)',
        params: InviteIdParams,
        response: { 200: OK('revoked'), ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      await teams.revokeInvite(
        requireUser(request.principal).teamId,
        actorOf(request),
        request.params.invite_id,
      );
      return { status: 'revoked' as const };
    },
  );

  app.post(
    '/api/team/accept',
    {
      config: { access: { auth: 'user' } },
      schema: {
        tags,
        summary: 'Accept an invitation (signed in as the invited address)',
        description:
          "Works whatever your own plan: the team is on its owner's. 422 invite_token_invalid (unknown, expired, cancelled or used), " +
          '403 invite_wrong_account (the invitation is for another address; the token stays usable), 409 team_full, 409 already_member, ' +
          '403 plan_upgrade_required when the team is cancelled. Seats never overflow, however many accept at once.',
        body: AcceptBody,
        response: { 200: Type.Ref('TeamMembership'), ...errorResponses(409, 422) },
      },
    },
    async (request) => {
      const actor = { ...actorOf(request), userId: requireUser(request.principal).userId };
      return teams.accept(actor, request.body.token);
    },
  );

  app.patch(
    '/api/team/members/:user_id',
    {
      config: inTeam('members.manage'),
      schema: {
        tags,
        summary: "Change a member's role (owner, admin)",
        description:
          "The owner's role never changes here (409 owner_role_fixed): the owner transfers ownership.",
        params: UserIdParams,
        body: RoleBody,
        response: { 200: Type.Ref('Team'), ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      const p = member(request.principal);
      await teams.changeRole(p.teamId, actorOf(request), request.params.user_id, request.body.role);
      return teams.detail(p.teamId, p.userId === request.params.user_id ? request.body.role : p.role);
    },
  );

  app.delete(
    '/api/team/members/:user_id',
    {
      config: inTeam('members.manage'),
      schema: {
        tags,
        summary: 'Remove a member (owner, admin)',
        description:
          "What they created stays the team's (their alerts, webhooks and tracked games pass to the owner). The owner cannot be removed (409 owner_cannot_leave); yourself: POST /api/team/leave (409 use_leave).",
        params: UserIdParams,
        response: { 200: OK('removed'), ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      await teams.removeMember(
        requireUser(request.principal).teamId,
        actorOf(request),
        request.params.user_id,
      );
      return { status: 'removed' as const };
    },
  );

  app.post(
    '/api/team/leave',
    {
      config: inTeam('team.leave'),
      schema: {
        tags,
        summary: 'Leave the team (every role but owner)',
        description: 'The owner transfers ownership first (403 role_forbidden for the owner).',
        response: { 200: OK('left'), ...errorResponses(409) },
      },
    },
    async (request) => {
      const p = requireUser(request.principal);
      await teams.leave(p.teamId, { ...actorOf(request), userId: p.userId });
      return { status: 'left' as const };
    },
  );

  app.post(
    '/api/team/transfer',
    {
      config: inTeam('ownership.transfer'),
      schema: {
        tags,
        summary: 'Transfer ownership to an admin (owner); you become an admin',
        description:
          "The new owner must be an admin (409 transfer_target_not_admin) on the Enterprise plan (409 transfer_target_plan): a team's plan is its owner's.",
        body: TransferBody,
        response: { 200: Type.Ref('Team'), ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => {
      const p = requireUser(request.principal);
      await teams.transfer(p.teamId, { ...actorOf(request), userId: p.userId }, request.body.user_id);
      return teams.detail(p.teamId, 'admin');
    },
  );

  app.patch(
    '/api/admin/teams/:team_id',
    {
      config: { access: { auth: 'user', admin: true } },
      schema: {
        tags: ['admin'],
        summary: "Set a team's seats (administrators)",
        description:
          "null goes back to the plan's number. Never below the current members (409 seats_below_members).",
        params: TeamIdParams,
        body: SeatsBody,
        response: { 200: Type.Ref('Team'), ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => teams.setSeats(request.params.team_id, actorOf(request), request.body.seats),
  );
}

export const teamSchemas = [Team, Membership];
