/**
 * Teams in tests: users signed in without a password round (sessionFor), a shared team with one
 * member of each role built through the real invite-and-accept routes, and the invitation token
 * read back from the outbox.
 */
import type { LightMyRequestResponse } from 'fastify';
import type { PlanName } from '../../src/plans.js';
import type { Role } from '../../src/roles.js';
import type { TestApp } from './app.js';
import { createUser } from './auth.js';

export interface Member {
  userId: number;
  email: string;
  password: string;
  token: string;
}

/** A new user with a bearer token (no argon2 verification: sessionFor, as a third-party sign-in). */
export async function member(t: TestApp, plan: PlanName = 'Explorer', isAdmin = false): Promise<Member> {
  const u = await createUser(t, { plan, isAdmin });
  const s = await t.accounts.accounts.sessionFor(u.id, { ip: '127.0.0.1', method: 'test' });
  return { userId: u.id, email: u.email, password: u.password, token: s.accessToken };
}

export function as(m: Member, teamId?: number): Record<string, string> {
  return {
    authorization: `Bearer ${m.token}`,
    ...(teamId === undefined ? {} : { 'x-team-id': String(teamId) }),
  };
}

/** The token of the last invitation mailed to `email`. */
export async function inviteToken(t: TestApp, email: string): Promise<string> {
  const rows = (
    await t.testDb.db.query<{ body: string }>(
      'SELECT body FROM outbox WHERE to_address = $1 ORDER BY id DESC LIMIT 1',
      [email],
    )
  ).rows;
  const match = /\/team\/accept\?token=([A-Za-z0-9_-]{43})/.exec(rows[0]?.body ?? '');
  if (!match) throw new Error(`no invitation mailed to ${email}`);
  return match[1]!;
}

function ok(res: LightMyRequestResponse, status: number, what: string): LightMyRequestResponse {
  if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res;
}

export async function createTeam(t: TestApp, owner: Member, name = 'Studio Team'): Promise<number> {
  const res = ok(
    await t.app.inject({ method: 'POST', url: '/api/team', headers: as(owner), payload: { name } }),
    201,
    'create team',
  );
  return (res.json() as { id: number }).id;
}

/** Invites `who` with `role` into the team as `by`, and accepts as them. */
export async function join(
  t: TestApp,
  teamId: number,
  by: Member,
  who: Member,
  role: Exclude<Role, 'owner'>,
) {
  ok(
    await t.app.inject({
      method: 'POST',
      url: '/api/team/invites',
      headers: as(by, teamId),
      payload: { email: who.email, role },
    }),
    201,
    'invite',
  );
  const token = await inviteToken(t, who.email);
  ok(
    await t.app.inject({ method: 'POST', url: '/api/team/accept', headers: as(who), payload: { token } }),
    200,
    'accept',
  );
}

export interface RoleSet {
  owner: Member;
  admin: Member;
  editor: Member;
  viewer: Member;
}

/** Four users: an Enterprise owner and three Explorer users for the other roles. */
export async function roleUsers(t: TestApp): Promise<RoleSet> {
  return {
    owner: await member(t, 'Enterprise'),
    admin: await member(t),
    editor: await member(t),
    viewer: await member(t),
  };
}

/** A shared team of `users.owner` with users.admin, .editor and .viewer in those roles. */
export async function teamWithRoles(t: TestApp, users: RoleSet, name = 'Studio Team'): Promise<number> {
  const teamId = await createTeam(t, users.owner, name);
  await join(t, teamId, users.owner, users.admin, 'admin');
  await join(t, teamId, users.owner, users.editor, 'editor');
  await join(t, teamId, users.owner, users.viewer, 'viewer');
  return teamId;
}
