/** Teams SQL: memberships and roles, shared teams, invitations, seats, and deleting a team whole. */
import type { Queryable } from '../db/index.js';
import type { PlanName, SubscriptionStatus } from '../plans.js';
import type { AssignableRole, Role } from '../roles.js';

/** The team owner's stored plan and subscription (a team's plan is its owner's entitled one). */
export interface OwnerPlanColumns {
  plan: PlanName;
  subscription_status: SubscriptionStatus;
  subscription_status_since: Date;
}

export interface MembershipKeyRow {
  team_id: number;
  role: Role;
  personal: boolean;
  owner_id: number;
}

const OWNER_JOIN = `JOIN team_members o ON o.team_id = t.id AND o.role = 'owner'
       JOIN users u ON u.id = o.user_id`;

/** The user's role in the team and who owns it; undefined when they are not a member. */
export async function findMembership(
  db: Queryable,
  userId: number,
  teamId: number,
): Promise<MembershipKeyRow | undefined> {
  return (
    await db.query<MembershipKeyRow>(
      `SELECT t.id AS team_id, m.role, t.personal, o.user_id AS owner_id
         FROM team_members m JOIN teams t ON t.id = m.team_id
         JOIN team_members o ON o.team_id = t.id AND o.role = 'owner'
        WHERE m.team_id = $2 AND m.user_id = $1`,
      [userId, teamId],
    )
  ).rows[0];
}

export interface MembershipRow extends MembershipKeyRow, OwnerPlanColumns {
  name: string;
  members: number;
  joined_at: Date;
}

/** Every team the user is in, their personal team first, then by name. */
export async function listMemberships(db: Queryable, userId: number): Promise<MembershipRow[]> {
  return (
    await db.query<MembershipRow>(
      `SELECT t.id AS team_id, t.name, m.role, t.personal, o.user_id AS owner_id, m.joined_at, u.plan,
              u.subscription_status,
              u.subscription_status_since,
              (SELECT count(*)::int FROM team_members c WHERE c.team_id = t.id) AS members
         FROM team_members m JOIN teams t ON t.id = m.team_id
         ${OWNER_JOIN}
        WHERE m.user_id = $1
        ORDER BY t.personal DESC, lower(t.name), t.id`,
      [userId],
    )
  ).rows;
}

export interface TeamRow extends OwnerPlanColumns {
  id: number;
  name: string;
  personal: boolean;
  seats: number | null;
  created_at: Date;
}

export async function findTeam(db: Queryable, teamId: number): Promise<TeamRow | undefined> {
  return (
    await db.query<TeamRow>(
      `SELECT t.id, t.name, t.personal, t.seats, t.created_at, u.plan, u.subscription_status,
              u.subscription_status_since
         FROM teams t ${OWNER_JOIN}
        WHERE t.id = $1`,
      [teamId],
    )
  ).rows[0];
}

/** The team's row, locked until the transaction ends: every seat and membership change takes it first. */
export async function lockTeam(tx: Queryable, teamId: number): Promise<TeamRow | undefined> {
  await tx.query('SELECT 1 FROM teams WHERE id = $1 FOR UPDATE', [teamId]);
  return findTeam(tx, teamId);
}

export interface MemberRow {
  user_id: number;
  email: string;
  role: Role;
  joined_at: Date;
}

/** Owner first, then admins, editors, viewers; by e-mail within a role. */
export async function listMembers(db: Queryable, teamId: number): Promise<MemberRow[]> {
  return (
    await db.query<MemberRow>(
      `SELECT m.user_id, u.email, m.role, m.joined_at
         FROM team_members m JOIN users u ON u.id = m.user_id
        WHERE m.team_id = $1
        ORDER BY array_position(ARRAY['owner','admin','editor','viewer'], m.role), u.email`,
      [teamId],
    )
  ).rows;
}

export async function countMembers(db: Queryable, teamId: number): Promise<number> {
  return (
    await db.query<{ n: number }>('SELECT count(*)::int AS n FROM team_members WHERE team_id = $1', [teamId])
  ).rows[0]!.n;
}

export async function findMember(
  db: Queryable,
  teamId: number,
  userId: number,
): Promise<MemberRow | undefined> {
  return (
    await db.query<MemberRow>(
      `SELECT m.user_id, u.email, m.role, m.joined_at
         FROM team_members m JOIN users u ON u.id = m.user_id
        WHERE m.team_id = $1 AND m.user_id = $2`,
      [teamId, userId],
    )
  ).rows[0];
}

export async function insertSharedTeam(tx: Queryable, name: string, now: Date): Promise<number> {
  return (
    await tx.query<{ id: number }>(
      'INSERT INTO teams (name, personal, created_at) VALUES ($1, false, $2) RETURNING id',
      [name, now],
    )
  ).rows[0]!.id;
}

export async function insertMember(
  tx: Queryable,
  m: { teamId: number; userId: number; role: Role; now: Date },
): Promise<void> {
  await tx.query('INSERT INTO team_members (team_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4)', [
    m.teamId,
    m.userId,
    m.role,
    m.now,
  ]);
}

export async function setRole(tx: Queryable, teamId: number, userId: number, role: Role): Promise<void> {
  await tx.query('UPDATE team_members SET role = $3 WHERE team_id = $1 AND user_id = $2', [
    teamId,
    userId,
    role,
  ]);
}

/**
 * Removes a member. What they created stays the team's: their alerts, webhooks and tracked games
 * pass to the owner (alert e-mails follow an alert's creator, who must be in the team).
 */
export async function removeMember(
  tx: Queryable,
  teamId: number,
  userId: number,
  ownerId: number,
): Promise<void> {
  await tx.query('DELETE FROM team_members WHERE team_id = $1 AND user_id = $2', [teamId, userId]);
  for (const table of ['alerts', 'webhooks', 'tracked_games', 'devlens_reports', 'api_keys'] as const) {
    await tx.query(`UPDATE ${table} SET user_id = $3 WHERE team_id = $1 AND user_id = $2`, [
      teamId,
      userId,
      ownerId,
    ]);
  }
}

export async function renameTeam(tx: Queryable, teamId: number, name: string): Promise<void> {
  await tx.query('UPDATE teams SET name = $2 WHERE id = $1', [teamId, name]);
}

export async function setSeats(tx: Queryable, teamId: number, seats: number | null): Promise<void> {
  await tx.query('UPDATE teams SET seats = $2 WHERE id = $1', [teamId, seats]);
}

/**
 * Deletes a shared team and everything it owns, in the caller's transaction: rows of every table
 * with a team_id column (found in the catalogue, so a table added later is not forgotten), alert
 * deliveries, then the team (members and invitations cascade). The audit log keeps its entries.
 */
export async function deleteTeamWhole(tx: Queryable, teamId: number): Promise<void> {
  await tx.query(
    `DELETE FROM deliveries WHERE alert_id IN (SELECT id FROM alerts WHERE team_id = $1)
        OR webhook_id IN (SELECT id FROM webhooks WHERE team_id = $1)`,
    [teamId],
  );
  const tables = await tx.query<{ name: string }>(
    `SELECT c.relname AS name
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE a.attname = 'team_id' AND NOT a.attisdropped
        AND n.nspname = current_schema()
        AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND c.relname NOT IN ('audit_log', 'users', 'team_members', 'team_invites')
      ORDER BY c.relname`,
  );
  for (const { name } of tables.rows) {
    await tx.query(`DELETE FROM "${name.replaceAll('"', '""')}" WHERE team_id = $1`, [teamId]);
  }
  await tx.query('DELETE FROM teams WHERE id = $1 AND NOT personal', [teamId]);
}

export interface InviteRow {
  id: number;
  team_id: number;
  email: string;
  role: AssignableRole;
  invited_by: number | null;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

const INVITE_COLUMNS =
  'id, team_id, email, role, invited_by, expires_at, accepted_at, revoked_at, created_at';

export async function insertInvite(
  tx: Queryable,
  i: {
    teamId: number;
    email: string;
    role: AssignableRole;
    hash: string;
    invitedBy: number;
    expiresAt: Date;
    now: Date;
  },
): Promise<InviteRow> {
  return (
    await tx.query<InviteRow>(
      `INSERT INTO team_invites (team_id, email, role, token_hash, invited_by, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${INVITE_COLUMNS}`,
      [i.teamId, i.email, i.role, i.hash, i.invitedBy, i.expiresAt, i.now],
    )
  ).rows[0]!;
}

/** Invitations not yet accepted, revoked or expired, oldest first. */
export async function listPendingInvites(db: Queryable, teamId: number, now: Date): Promise<InviteRow[]> {
  return (
    await db.query<InviteRow>(
      `SELECT ${INVITE_COLUMNS} FROM team_invites
        WHERE team_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
        ORDER BY id`,
      [teamId, now],
    )
  ).rows;
}

/** Revokes the earlier live invitations of an address (a new one replaces them). */
export async function revokeInvitesTo(
  tx: Queryable,
  teamId: number,
  email: string,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE team_invites SET revoked_at = $3
      WHERE team_id = $1 AND email = $2 AND accepted_at IS NULL AND revoked_at IS NULL`,
    [teamId, email, now],
  );
}

export async function revokeInvite(
  tx: Queryable,
  teamId: number,
  inviteId: number,
  now: Date,
): Promise<InviteRow | undefined> {
  return (
    await tx.query<InviteRow>(
      `UPDATE team_invites SET revoked_at = $3
        WHERE id = $1 AND team_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $3
        RETURNING ${INVITE_COLUMNS}`,
      [inviteId, teamId, now],
    )
  ).rows[0];
}

/** A live invitation by its token's hash, locked (accepting reads, checks and marks it). */
export async function lockLiveInvite(tx: Queryable, hash: string, now: Date): Promise<InviteRow | undefined> {
  return (
    await tx.query<InviteRow>(
      `SELECT ${INVITE_COLUMNS} FROM team_invites
        WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
        FOR UPDATE`,
      [hash, now],
    )
  ).rows[0];
}

export async function markInviteAccepted(
  tx: Queryable,
  inviteId: number,
  userId: number,
  now: Date,
): Promise<void> {
  await tx.query('UPDATE team_invites SET accepted_at = $3, accepted_by = $2 WHERE id = $1', [
    inviteId,
    userId,
    now,
  ]);
}

/** Deletes invitations that expired (or ended) more than 30 days ago; returns how many. */
export async function purgeOldInvites(db: Queryable, before: Date): Promise<number> {
  return (
    await db.query(
      `DELETE FROM team_invites
        WHERE expires_at < $1 OR accepted_at < $1 OR revoked_at < $1`,
      [before],
    )
  ).rowCount;
}

export async function findUserEmail(db: Queryable, userId: number): Promise<string | undefined> {
  return (await db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [userId])).rows[0]
    ?.email;
}
