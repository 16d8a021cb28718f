/**
 * Teams: shared teams with seats, members and roles, invitations by e-mail, ownership transfer,
 * renaming and deletion. The auth guard has already checked the caller's role against the
 * permission table (roles.ts) for the route; the rules here are the ones a role alone cannot say
 * (nobody changes the owner's role, the owner cannot leave, seats never overflow). Every change
 * writes its audit entry in the same transaction.
 */
import type { AccountMail, AccountMailer, AccountsService } from '../accounts/index.js';
import { newAccountToken, normaliseEmail, sha256 } from '../accounts/index.js';
import type { AuditActor, AuditService } from '../audit/index.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { AppError, errors } from '../errors.js';
import type { TeamAccess } from '../identity.js';
import type { Kv } from '../kv/index.js';
import {
  type Entitlements,
  entitledPlan,
  type PlanName,
  planAtLeast,
  TEAM_PLAN,
  teamActive,
} from '../plans.js';
import { type AssignableRole, permissionsOf, type Role } from '../roles.js';
import * as repo from './teams.repo.js';
import type { InviteT, MembershipT, TeamT } from './teams.schemas.js';

export const INVITE_TTL_MS = 7 * 86_400_000;
/** Shared teams one user may own. */
export const MAX_OWNED_TEAMS = 10;
/** How long a membership (role, owner) stays cached; every change to it clears it at once. */
const ACCESS_CACHE_MS = 30_000;

interface CachedMembership {
  role: Role;
  personal: boolean;
  ownerId: number;
}

function accessKey(teamId: number, userId: number): string {
  return `team:v1:${teamId}:${userId}`;
}

export interface TeamsDeps {
  db: Db;
  clock: Clock;
  /** Caches memberships for the auth guard (shared by every process with REDIS_URL). */
  kv: Kv;
  /** The owner's plan comes from accounts' cached auth state, which a plan change clears. */
  accounts: Pick<AccountsService, 'authState'>;
  entitlements: Entitlements;
  audit: AuditService;
  mailer: AccountMailer;
  /** PUBLIC_URL: invitation links point at its /team/accept page. */
  publicUrl: string;
}

export function inviteMail(publicUrl: string, token: string, teamName: string, inviter: string): AccountMail {
  const link = `${publicUrl}/team/accept?token=${encodeURIComponent(token)}`;
  return {
    subject: `[svc] ${inviter} invited you to the team "${teamName}"`,
    body: [
      `${inviter} invited you to join the team "${teamName}" on svc.`,
      'To accept, sign in (or create an account with this e-mail address) and open this link:',
      '',
      link,
      '',
      'The link works once, for 7 days. If you do not know the sender, ignore this e-mail.',
    ].join('\n'),
  };
}

const personalTeam = () =>
  errors.conflict(
    'personal_team',
    'This is your personal team: it has no other members. Create a team to invite people.',
  );
const inviteInvalid = () =>
  errors.unprocessable(
    'invite_token_invalid',
    'This invitation is invalid, expired, cancelled or already used; ask for a new one.',
    'body.token',
  );
const memberNotFound = () =>
  new AppError(404, 'member_not_found', 'No member of this team has this user id.');

export class TeamsService {
  constructor(private readonly deps: TeamsDeps) {}

  private planOf(row: {
    plan: PlanName;
    subscription_status: repo.OwnerPlanColumns['subscription_status'];
    subscription_status_since: Date;
  }): PlanName {
    return entitledPlan(
      row.plan,
      row.subscription_status,
      row.subscription_status_since,
      this.deps.clock.now(),
    );
  }

  /**
   * For the auth guard: the user's role in the team and the team's plan, or null. The membership
   * is cached briefly and cleared by every change to it; the owner's plan is read through
   * accounts' auth state, which a plan change clears, so a downgrade cancels the team at once.
   */
  async access(userId: number, teamId: number): Promise<TeamAccess | null> {
    const key = accessKey(teamId, userId);
    const cached = await this.deps.kv.get(key);
    let m: CachedMembership;
    if (cached) {
      m = JSON.parse(cached) as CachedMembership;
    } else {
      const row = await repo.findMembership(this.deps.db, userId, teamId);
      if (!row) return null;
      m = { role: row.role, personal: row.personal, ownerId: row.owner_id };
      await this.deps.kv.set(key, JSON.stringify(m), ACCESS_CACHE_MS, { cache: true });
    }
    const owner = await this.deps.accounts.authState(m.ownerId);
    if (!owner) return null;
    const plan = entitledPlan(owner.plan, owner.status, new Date(owner.statusSinceMs), this.deps.clock.now());
    return { teamId, role: m.role, personal: m.personal, plan };
  }

  /** Clears the cached memberships of these users in the team (after the change committed). */
  private async forget(teamId: number, userIds: readonly number[]): Promise<void> {
    for (const id of userIds) await this.deps.kv.del(accessKey(teamId, id));
  }

  private status(personal: boolean, plan: PlanName): 'active' | 'cancelled' {
    return teamActive(personal, plan) ? 'active' : 'cancelled';
  }

  /** A personal team has one seat; a shared one its own number, or the team plan's (Enterprise). */
  private seatsOf(row: repo.TeamRow): number {
    if (row.personal) return 1;
    return row.seats ?? this.deps.entitlements.plans[TEAM_PLAN].teamSeats;
  }

  async memberships(userId: number): Promise<MembershipT[]> {
    return (await repo.listMemberships(this.deps.db, userId)).map((r) => {
      const plan = this.planOf(r);
      return {
        id: r.team_id,
        name: r.name,
        personal: r.personal,
        role: r.role,
        status: this.status(r.personal, plan),
        members: r.members,
        joined_at: r.joined_at.toISOString(),
      };
    });
  }

  async detail(teamId: number, role: Role | null): Promise<TeamT> {
    const row = await repo.findTeam(this.deps.db, teamId);
    if (!row) throw errors.teamNotFound();
    const plan = this.planOf(row);
    const [members, invites] = await Promise.all([
      repo.listMembers(this.deps.db, teamId),
      repo.listPendingInvites(this.deps.db, teamId, this.deps.clock.now()),
    ]);
    return {
      id: row.id,
      name: row.name,
      personal: row.personal,
      status: this.status(row.personal, plan),
      plan,
      seats: this.seatsOf(row),
      seats_used: members.length,
      your_role: role,
      your_permissions: role ? permissionsOf(role) : [],
      created_at: row.created_at.toISOString(),
      members: members.map((m) => ({
        user_id: m.user_id,
        email: m.email,
        role: m.role,
        joined_at: m.joined_at.toISOString(),
      })),
      invites: invites.map(invite),
    };
  }

  /** A new shared team owned by the caller (whose own plan the route has checked). */
  async create(actor: AuditActor & { userId: number }, name: string): Promise<TeamT> {
    const now = this.deps.clock.now();
    const teamId = await this.deps.db.transaction(async (tx) => {
      const owned = (await repo.listMemberships(tx, actor.userId)).filter(
        (m) => !m.personal && m.role === 'owner',
      );
      if (owned.length >= MAX_OWNED_TEAMS) {
        throw errors.conflict(
          'limit_reached',
          `You can own at most ${MAX_OWNED_TEAMS} teams; delete one first.`,
        );
      }
      const id = await repo.insertSharedTeam(tx, name, now);
      await repo.insertMember(tx, { teamId: id, userId: actor.userId, role: 'owner', now });
      await this.deps.audit.record(tx, id, actor, {
        action: 'team.created',
        targetType: 'team',
        targetId: id,
        after: { name },
      });
      return id;
    });
    return this.detail(teamId, 'owner');
  }

  async rename(teamId: number, actor: AuditActor, name: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const team = await repo.lockTeam(tx, teamId);
      if (!team) throw errors.notFound('No such team.');
      if (team.personal) throw personalTeam();
      if (team.name === name) return;
      await repo.renameTeam(tx, teamId, name);
      await this.deps.audit.record(tx, teamId, actor, {
        action: 'team.renamed',
        targetType: 'team',
        targetId: teamId,
        before: { name: team.name },
        after: { name },
      });
    });
  }

  /** Deletes the team and everything it owns, all or nothing. */
  async remove(teamId: number, actor: AuditActor): Promise<void> {
    const members = await this.deps.db.transaction(async (tx) => {
      const team = await repo.lockTeam(tx, teamId);
      if (!team) throw errors.notFound('No such team.');
      if (team.personal) throw errors.conflict('personal_team', 'A personal team cannot be deleted.');
      const all = await repo.listMembers(tx, teamId);
      await this.deps.audit.record(tx, teamId, actor, {
        action: 'team.deleted',
        targetType: 'team',
        targetId: teamId,
        before: { name: team.name, members: all.length },
      });
      await repo.deleteTeamWhole(tx, teamId);
      return all.map((m) => m.user_id);
    });
    await this.forget(teamId, members);
  }

  async invite(
    teamId: number,
    actor: AuditActor & { userId: number },
    input: { email: string; role: AssignableRole },
  ): Promise<InviteT> {
    const email = normaliseEmail(input.email);
    const now = this.deps.clock.now();
    const token = newAccountToken();
    const { row, afterCommit } = await this.deps.db.transaction(async (tx) => {
      const team = await repo.lockTeam(tx, teamId);
      if (!team) throw errors.notFound('No such team.');
      if (team.personal) throw personalTeam();
      const members = await repo.listMembers(tx, teamId);
      if (members.some((m) => m.email === email)) {
        throw errors.conflict('already_member', 'Someone with this e-mail address is already a member.');
      }
      const seats = this.seatsOf(team);
      if (members.length >= seats) throw teamFull(seats);
      await repo.revokeInvitesTo(tx, teamId, email, now);
      const inserted = await repo.insertInvite(tx, {
        teamId,
        email,
        role: input.role,
        hash: sha256(token),
        invitedBy: actor.userId,
        expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
        now,
      });
      await this.deps.audit.record(tx, teamId, actor, {
        action: 'invite.created',
        targetType: 'invite',
        targetId: inserted.id,
        after: { email, role: input.role },
      });
      const inviter = (await repo.findUserEmail(tx, actor.userId)) ?? 'A member';
      const mail = inviteMail(this.deps.publicUrl, token, team.name, inviter);
      return { row: inserted, afterCommit: await this.deps.mailer.queueToAddress(tx, email, mail) };
    });
    afterCommit();
    return invite(row);
  }

  async revokeInvite(teamId: number, actor: AuditActor, inviteId: number): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const row = await repo.revokeInvite(tx, teamId, inviteId, this.deps.clock.now());
      if (!row)
        throw new AppError(404, 'invite_not_found', 'No pending invitation of this team has this id.');
      await this.deps.audit.record(tx, teamId, actor, {
        action: 'invite.revoked',
        targetType: 'invite',
        targetId: inviteId,
        before: { email: row.email, role: row.role },
      });
    });
  }

  /**
   * Joins the team of a live invitation addressed to the caller's e-mail. The invitation row and
   * then the team row are locked, and the seats counted under the team lock, so concurrent
   * accepts can never take more seats than there are. A refused accept leaves the token usable.
   */
  async accept(actor: AuditActor & { userId: number }, token: string): Promise<MembershipT> {
    const now = this.deps.clock.now();
    const teamId = await this.deps.db.transaction(async (tx) => {
      const inv = await repo.lockLiveInvite(tx, sha256(token), now);
      if (!inv) throw inviteInvalid();
      const email = await repo.findUserEmail(tx, actor.userId);
      if (email !== inv.email) {
        throw errors.forbidden(
          'invite_wrong_account',
          'This invitation is for another e-mail address: sign in with the account it was sent to.',
        );
      }
      const team = await repo.lockTeam(tx, inv.team_id);
      if (!team) throw inviteInvalid();
      if (!teamActive(team.personal, this.planOf(team))) {
        throw errors.teamCancelled(
          "This team is cancelled: its owner's plan is no longer Enterprise, so it takes no new members.",
        );
      }
      if (await repo.findMember(tx, inv.team_id, actor.userId)) {
        throw errors.conflict('already_member', 'You are already a member of this team.');
      }
      const seats = this.seatsOf(team);
      if ((await repo.countMembers(tx, inv.team_id)) >= seats) throw teamFull(seats);
      await repo.insertMember(tx, { teamId: inv.team_id, userId: actor.userId, role: inv.role, now });
      await repo.markInviteAccepted(tx, inv.id, actor.userId, now);
      await this.deps.audit.record(tx, inv.team_id, actor, {
        action: 'invite.accepted',
        targetType: 'user',
        targetId: actor.userId,
        after: { email: inv.email, role: inv.role, invite_id: inv.id },
      });
      return inv.team_id;
    });
    const joined = (await this.memberships(actor.userId)).find((m) => m.id === teamId);
    return joined!;
  }

  async changeRole(teamId: number, actor: AuditActor, userId: number, role: AssignableRole): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const team = await repo.lockTeam(tx, teamId);
      if (!team) throw errors.notFound('No such team.');
      const member = await repo.findMember(tx, teamId, userId);
      if (!member) throw memberNotFound();
      if (member.role === 'owner') {
        throw errors.conflict(
          'owner_role_fixed',
          "The owner's role cannot be changed; the owner transfers ownership to an admin instead.",
        );
      }
      if (member.role === role) return;
      await repo.setRole(tx, teamId, userId, role);
      await this.deps.audit.record(tx, teamId, actor, {
        action: 'member.role_changed',
        targetType: 'user',
        targetId: userId,
        before: { email: member.email, role: member.role },
        after: { email: member.email, role },
      });
    });
    await this.forget(teamId, [userId]);
  }

  async removeMember(teamId: number, actor: AuditActor, userId: number): Promise<void> {
    if (userId === actor.userId) {
      throw errors.conflict('use_leave', 'To leave the team yourself, use POST /api/team/leave.');
    }
    await this.leaveOrRemove(teamId, actor, userId, 'member.removed');
  }

  async leave(teamId: number, actor: AuditActor & { userId: number }): Promise<void> {
    await this.leaveOrRemove(teamId, actor, actor.userId, 'member.left');
  }

  private async leaveOrRemove(
    teamId: number,
    actor: AuditActor,
    userId: number,
    action: 'member.removed' | 'member.left',
  ): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const team = await repo.lockTeam(tx, teamId);
      if (!team) throw errors.notFound('No such team.');
      if (team.personal) throw personalTeam();
      const member = await repo.findMember(tx, teamId, userId);
      if (!member) throw memberNotFound();
      if (member.role === 'owner') {
        throw errors.conflict(
          'owner_cannot_leave',
          'The owner cannot leave or be removed: transfer ownership to an admin first (or delete the team).',
        );
      }
      const owner = (await repo.listMembers(tx, teamId)).find((m) => m.role === 'owner')!;
      await repo.removeMember(tx, teamId, userId, owner.user_id);
      await this.deps.audit.record(tx, teamId, actor, {
        action,
        targetType: 'user',
        targetId: userId,
        before: { email: member.email, role: member.role },
      });
    });
    await this.forget(teamId, [userId]);
  }

  /** Hands the team to one of its admins; the old owner becomes an admin. */
  async transfer(teamId: number, actor: AuditActor & { userId: number }, userId: number): Promise<void> {
    // Read before the transaction: accounts reads through the pool (one connection on PGlite).
    const next = await this.deps.accounts.authState(userId);
    const nextPlan =
      next && entitledPlan(next.plan, next.status, new Date(next.statusSinceMs), this.deps.clock.now());
    await this.deps.db.transaction(async (tx) => {
      const team = await repo.lockTeam(tx, teamId);
      if (!team) throw errors.notFound('No such team.');
      if (team.personal) throw personalTeam();
      const target = await repo.findMember(tx, teamId, userId);
      if (!target) throw memberNotFound();
      if (target.role === 'owner')
        throw errors.conflict('already_owner', 'This member already owns the team.');
      if (target.role !== 'admin') {
        throw errors.conflict(
          'transfer_target_not_admin',
          `Ownership goes to an admin; this member is ${target.role === 'editor' ? 'an editor' : 'a viewer'}. Make them an admin first.`,
        );
      }
      if (!nextPlan || !planAtLeast(nextPlan, TEAM_PLAN)) {
        throw errors.conflict(
          'transfer_target_plan',
          "A team's plan is its owner's: the new owner needs the Enterprise plan, or the team would be cancelled.",
        );
      }
      await repo.setRole(tx, teamId, actor.userId, 'admin');
      await repo.setRole(tx, teamId, userId, 'owner');
      await this.deps.audit.record(tx, teamId, actor, {
        action: 'ownership.transferred',
        targetType: 'user',
        targetId: userId,
        before: { owner_id: actor.userId, owner_email: await repo.findUserEmail(tx, actor.userId) },
        after: { owner_id: userId, owner_email: target.email },
      });
    });
    await this.forget(teamId, [actor.userId, userId]);
  }

  /** A service administrator sets a team's seats (null: the plan's number again). */
  async setSeats(teamId: number, actor: AuditActor, seats: number | null): Promise<TeamT> {
    await this.deps.db.transaction(async (tx) => {
      const team = await repo.lockTeam(tx, teamId);
      if (!team) throw errors.teamNotFound('No team has this id.');
      if (team.personal)
        throw errors.conflict('personal_team', 'A personal team has one seat; it cannot be changed.');
      const members = await repo.countMembers(tx, teamId);
      const effective = seats ?? this.deps.entitlements.plans[TEAM_PLAN].teamSeats;
      if (effective < members) {
        throw errors.conflict(
          'seats_below_members',
          `The team has ${members} members; seats cannot go below that (remove members first).`,
        );
      }
      if (team.seats === seats) return;
      await repo.setSeats(tx, teamId, seats);
      await this.deps.audit.record(tx, teamId, actor, {
        action: 'team.seats_changed',
        targetType: 'team',
        targetId: teamId,
        before: { seats: team.seats },
        after: { seats },
      });
    });
    return this.detail(teamId, null);
  }

  /** Deletes invitations that ended more than 30 days ago (the daily purge); returns how many. */
  purgeOldInvites(now: Date): Promise<number> {
    return repo.purgeOldInvites(this.deps.db, new Date(now.getTime() - 30 * 86_400_000));
  }
}

function teamFull(seats: number): AppError {
  return errors.conflict(
    'team_full',
    `Every seat of this team is taken (${seats}); remove a member or ask for more seats.`,
  );
}

function invite(r: repo.InviteRow): InviteT {
  return {
    id: r.id,
    email: r.email,
    role: r.role,
    invited_by: r.invited_by,
    expires_at: r.expires_at.toISOString(),
    created_at: r.created_at.toISOString(),
  };
}
