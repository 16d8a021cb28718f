import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { as, type Member, member, type RoleSet, roleUsers, teamWithRoles } from '../../test/helpers/teams.js';
import { fixedClock } from '../clock.js';

describe.each(testEngines())('audit log (%s)', (engine) => {
  const clock = fixedClock('2026-06-01T10:00:00Z');
  let t: TestApp;
  let users: RoleSet;
  let admin: Member;
  let teamId: number;
  beforeAll(async () => {
    t = await buildTestApp({ engine, clock });
    users = await roleUsers(t);
    admin = await member(t, 'Explorer', true);
    teamId = await teamWithRoles(t, users, 'Audited');
    clock.advance(60_000);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/team/members/${users.viewer.userId}`,
      headers: as(users.admin, teamId),
      payload: { role: 'editor' },
    });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/team/members/${users.viewer.userId}`,
      headers: as(users.admin, teamId),
      payload: { role: 'viewer' },
    });
  });
  afterAll(() => t.close());

  const get = (url: string, m: Member, team = teamId) => t.app.inject({ url, headers: as(m, team) });

  it('records who did what, when, from where, with before and after', async () => {
    const res = await get('/api/team/audit?action=member.role_changed', users.owner);
    expect(res.statusCode).toBe(200);
    const { entries, next_cursor } = res.json();
    expect(next_cursor).toBeNull();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toEqual({
      id: expect.any(Number),
      at: '2026-06-01T10:01:00.000Z',
      team_id: teamId,
      actor_id: users.admin.userId,
      actor_email: users.admin.email,
      action: 'member.role_changed',
      target_type: 'user',
      target_id: String(users.viewer.userId),
      ip: '127.0.0.1',
      user_agent: 'lightMyRequest',
      before: { email: users.viewer.email, role: 'editor' },
      after: { email: users.viewer.email, role: 'viewer' },
    });
    const all = (await get('/api/team/audit?limit=200', users.viewer)).json().entries;
    expect(all.map((e: { action: string }) => e.action).reverse()).toEqual([
      'team.created',
      'invite.created',
      'invite.accepted',
      'invite.created',
      'invite.accepted',
      'invite.created',
      'invite.accepted',
      'member.role_changed',
      'member.role_changed',
    ]);
  });

  it('is readable by owner, admin and viewer, not editor', async () => {
    expect((await get('/api/team/audit', users.admin)).statusCode).toBe(200);
    const editor = await get('/api/team/audit', users.editor);
    expect(editor.statusCode).toBe(403);
    expect(editor.json().code).toBe('role_forbidden');
  });

  it('pages with a cursor and filters by actor, target and time', async () => {
    const first = (await get('/api/team/audit?limit=4', users.owner)).json();
    expect(first.entries).toHaveLength(4);
    const second = (await get(`/api/team/audit?limit=4&cursor=${first.next_cursor}`, users.owner)).json();
    const third = (await get(`/api/team/audit?limit=4&cursor=${second.next_cursor}`, users.owner)).json();
    expect(third.next_cursor).toBeNull();
    const ids = [...first.entries, ...second.entries, ...third.entries].map((e: { id: number }) => e.id);
    expect(ids).toHaveLength(9);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const byAdmin = (await get(`/api/team/audit?actor_id=${users.admin.userId}`, users.owner)).json().entries;
    expect(byAdmin.map((e: { action: string }) => e.action)).toEqual([
      'member.role_changed',
      'member.role_changed',
      'invite.accepted',
    ]);
    const invites = (await get('/api/team/audit?target_type=invite', users.owner)).json().entries;
    expect(invites).toHaveLength(3);
    const later = (await get('/api/team/audit?since=2026-06-01T10:00:30Z', users.owner)).json().entries;
    expect(later).toHaveLength(2);
    const bad = await get('/api/team/audit?action=nope', users.owner);
    expect(bad.statusCode).toBe(422);
  });

  it('exports CSV with every matching entry', async () => {
    const res = await get('/api/team/audit?format=csv&action=member.role_changed', users.owner);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="audit_team-${teamId}.csv"`);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,at,team_id,actor_id,actor_email,action,target_type,target_id,ip,user_agent,before,after',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(
      `,2026-06-01T10:01:00.000Z,${teamId},${users.admin.userId},${users.admin.email},member.role_changed,user,${users.viewer.userId},127.0.0.1,lightMyRequest,`,
    );
    // before/after are JSON text in one quoted cell (jsonb orders keys shortest first).
    expect(lines[1]).toContain(`"{""role"":""editor"",""email"":""${users.viewer.email}""}"`);
  });

  it("records members' sign-ins in each of their teams", async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'user-agent': 'Studio Browser/1.0' },
      payload: { email: users.editor.email, password: users.editor.password },
    });
    expect(login.statusCode).toBe(200);
    const fresh = { ...users.editor, token: login.json().access_token };
    users.editor = fresh;
    const signIns = (await get('/api/team/audit?action=member.signed_in', users.owner)).json().entries;
    expect(signIns[0]).toMatchObject({
      actor_id: users.editor.userId,
      user_agent: 'Studio Browser/1.0',
      after: { method: 'password' },
    });
    const personal = (
      await t.testDb.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM audit_log WHERE action = 'member.signed_in' AND actor_id = $1 AND team_id <> $2",
        [users.editor.userId, teamId],
      )
    ).rows[0]!.n;
    expect(personal).toBeGreaterThanOrEqual(1);
  });

  it('lets service administrators read every team, and nobody else', async () => {
    const all = await t.app.inject({
      url: `/api/admin/audit?team_id=${teamId}&limit=200`,
      headers: as(admin),
    });
    expect(all.statusCode).toBe(200);
    expect(all.json().entries.every((e: { team_id: number }) => e.team_id === teamId)).toBe(true);
    const refused = await t.app.inject({ url: '/api/admin/audit', headers: as(users.owner) });
    expect(refused.json().code).toBe('admin_required');
  });

  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const db = t.testDb.db;
    const before = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n;
    await expect(db.query("UPDATE audit_log SET action = 'forged'")).rejects.toThrow(/append-only: UPDATE/);
    await expect(db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only: DELETE/);
    await expect(db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only: TRUNCATE/);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n).toBe(
      before,
    );
    expect(
      (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'forged'"))
        .rows[0]!.n,
    ).toBe(0);
  });
});
