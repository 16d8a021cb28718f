import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import {
  as,
  createTeam,
  inviteToken,
  join,
  type Member,
  member,
  type RoleSet,
  roleUsers,
  teamWithRoles,
} from '../../test/helpers/teams.js';
import { fixedClock } from '../clock.js';

describe.each(testEngines())('teams (%s)', (engine) => {
  let clock: ReturnType<typeof fixedClock>;
  let t: TestApp;
  let users: RoleSet;
  let admin: Member;
  beforeAll(async () => {
    clock = fixedClock('2026-06-01T10:00:00Z');
    t = await buildTestApp({ engine, clock, env: { PUBLIC_URL: 'https://svc.example' } });
    users = await roleUsers(t);
    admin = await member(t, 'Explorer', true);
  });
  afterAll(() => t.close());

  const inject = (method: string, url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
  const summary = (res: { statusCode: number; json(): unknown }) => [
    res.statusCode,
    (res.json() as { code?: string }).code,
  ];

  it('creating a team needs your own Enterprise plan; the team starts with you as owner', async () => {
    const res = await inject('POST', '/api/team', as(users.admin), { name: 'Nope' });
    expect(summary(res)).toEqual([403, 'plan_upgrade_required']);
    const teamId = await createTeam(t, users.owner, '  Blox Studio  ');
    const team = (await inject('GET', '/api/team', as(users.owner, teamId))).json();
    expect(team).toMatchObject({
      id: teamId,
      name: 'Blox Studio',
      personal: false,
      status: 'active',
      plan: 'Enterprise',
      seats: 25,
      seats_used: 1,
      your_role: 'owner',
      invites: [],
    });
    expect(team.members).toEqual([
      {
        user_id: users.owner.userId,
        email: users.owner.email,
        role: 'owner',
        joined_at: '2026-06-01T10:00:00.000Z',
      },
    ]);
    expect(team.your_permissions).toContain('team.delete');
  });

  it('invites by e-mail with a single-use 7-day link, accepted by the invited account whatever its plan', async () => {
    const teamId = await createTeam(t, users.owner, 'Invites');
    const invitee = await member(t);
    const created = await inject('POST', '/api/team/invites', as(users.owner, teamId), {
      email: invitee.email.toUpperCase(),
      role: 'editor',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      email: invitee.email,
      role: 'editor',
      invited_by: users.owner.userId,
      expires_at: '2026-06-08T10:00:00.000Z',
    });
    const mail = (
      await t.testDb.db.query<{ subject: string; body: string }>(
        'SELECT subject, body FROM outbox WHERE to_address = $1',
        [invitee.email],
      )
    ).rows;
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe(`[svc] ${users.owner.email} invited you to the team "Invites"`);
    expect(mail[0]!.body).toMatch(/^https:\/\/svc\.example\/team\/accept\?token=[A-Za-z0-9_-]{43}$/m);
    const token = await inviteToken(t, invitee.email);

    const stranger = await member(t);
    const wrong = await inject('POST', '/api/team/accept', as(stranger), { token });
    expect(summary(wrong)).toEqual([403, 'invite_wrong_account']);

    const accepted = await inject('POST', '/api/team/accept', as(invitee), { token });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({
      id: teamId,
      name: 'Invites',
      role: 'editor',
      status: 'active',
      members: 2,
    });
    const replay = await inject('POST', '/api/team/accept', as(invitee), { token });
    expect(replay.json()).toEqual({
      detail: 'This invitation is invalid, expired, cancelled or already used; ask for a new one.',
      code: 'invite_token_invalid',
      field: 'body.token',
    });
    const mine = (await inject('GET', '/api/team/memberships', as(invitee))).json().teams;
    expect(mine.map((m: { personal: boolean; role: string }) => [m.personal, m.role])).toEqual([
      [true, 'owner'],
      [false, 'editor'],
    ]);
    const again = await inject('POST', '/api/team/invites', as(users.owner, teamId), {
      email: invitee.email,
      role: 'viewer',
    });
    expect(summary(again)).toEqual([409, 'already_member']);
  });

  it('refuses an invitation after 7 days, and one that was cancelled', async () => {
    const teamId = await createTeam(t, users.owner, 'Expiry');
    const late = await member(t);
    await inject('POST', '/api/team/invites', as(users.owner, teamId), { email: late.email, role: 'viewer' });
    const token = await inviteToken(t, late.email);
    clock.set('2026-06-08T10:00:01Z');
    try {
      const fresh = await t.accounts.accounts.sessionFor(late.userId, { ip: '127.0.0.1', method: 'test' });
      const lateNow = { ...late, token: fresh.accessToken };
      expect(summary(await inject('POST', '/api/team/accept', as(lateNow), { token }))).toEqual([
        422,
        'invite_token_invalid',
      ]);
    } finally {
      clock.set('2026-06-01T10:00:00Z');
    }
    const cancelled = await member(t);
    const inv = await inject('POST', '/api/team/invites', as(users.owner, teamId), {
      email: cancelled.email,
      role: 'viewer',
    });
    const cancelToken = await inviteToken(t, cancelled.email);
    const del = await inject('DELETE', `/api/team/invites/${inv.json().id}`, as(users.owner, teamId));
    expect(del.json()).toEqual({ status: 'revoked' });
    expect(summary(await inject('POST', '/api/team/accept', as(cancelled), { token: cancelToken }))).toEqual([
      422,
      'invite_token_invalid',
    ]);
  });

  it('never gives more seats than there are: 20 concurrent accepts for 1 free seat', async () => {
    const teamId = await createTeam(t, users.owner, 'Seats');
    const seats = await inject('PATCH', `/api/admin/teams/${teamId}`, as(admin), { seats: 2 });
    expect(seats.json()).toMatchObject({ seats: 2, seats_used: 1, your_role: null });
    const invitees = await Promise.all(Array.from({ length: 20 }, () => member(t)));
    const tokens: string[] = [];
    for (const who of invitees) {
      const res = await inject('POST', '/api/team/invites', as(users.owner, teamId), {
        email: who.email,
        role: 'viewer',
      });
      expect(res.statusCode).toBe(201);
      tokens.push(await inviteToken(t, who.email));
    }
    const answers = await Promise.all(
      invitees.map((who, i) => inject('POST', '/api/team/accept', as(who), { token: tokens[i]! })),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, ...Array(19).fill(409)]);
    for (const a of answers.filter((x) => x.statusCode === 409)) {
      expect(a.json()).toEqual({
        detail: 'Every seat of this team is taken (2); remove a member or ask for more seats.',
        code: 'team_full',
      });
    }
    const team = (await inject('GET', '/api/team', as(users.owner, teamId))).json();
    expect(team.seats_used).toBe(2);
    const below = await inject('PATCH', `/api/admin/teams/${teamId}`, as(admin), { seats: 1 });
    expect(summary(below)).toEqual([409, 'seats_below_members']);
  });

  it("acts in the team of X-Team-Id: resources, keys and the team's plan", async () => {
    const teamId = await teamWithRoles(t, users, 'Resources');
    // An admin (on Explorer themself) creates a team key: it belongs to the team, not to them.
    const key = await inject('POST', '/api/keys', as(users.admin, teamId), {
      name: 'game server',
      scopes: ['read'],
    });
    expect(key.statusCode).toBe(200);
    const { id: keyId } = key.json();
    const teamKeys = (await inject('GET', '/api/keys', as(users.viewer, teamId))).json();
    expect(teamKeys.map((k: { id: number }) => k.id)).toEqual([keyId]);
    expect((await inject('GET', '/api/keys', as(users.admin))).json()).toEqual([]);
    expect(
      summary(await inject('POST', '/api/keys', as(users.editor, teamId), { name: 'x', scopes: ['read'] })),
    ).toEqual([403, 'role_forbidden']);
    expect(
      (await t.testDb.db.query('SELECT team_id, user_id FROM api_keys WHERE id = $1', [keyId])).rows,
    ).toEqual([{ team_id: teamId, user_id: users.admin.userId }]);
    // Dev Lens (Studio) is open to an Explorer editor inside the Enterprise team, not outside it.
    expect((await inject('GET', '/api/dev-lens/reports', as(users.editor, teamId))).statusCode).toBe(200);
    expect(summary(await inject('GET', '/api/dev-lens/reports', as(users.editor)))).toEqual([
      403,
      'plan_upgrade_required',
    ]);
    // GET /api/track lists the team's games with the team's caps (Enterprise: 500), not the caller's.
    await t.testDb.db.query(
      'INSERT INTO tracked_games (team_id, user_id, universe_id, created_at) VALUES ($1, $2, 994732206, now())',
      [teamId, users.editor.userId],
    );
    expect((await inject('GET', '/api/track', as(users.viewer, teamId))).json()).toEqual({
      tracked_games: [994732206],
      tracked_count: 1,
      plan: 'Enterprise',
      limit: 500,
      alerts_limit: 500,
    });
    expect((await inject('GET', '/api/track', as(users.viewer))).json()).toMatchObject({
      tracked_games: [],
      plan: 'Explorer',
      limit: 5,
    });
    // Bad and foreign team ids.
    const bad = await inject('GET', '/api/team', { ...as(users.viewer), 'x-team-id': 'abc' });
    expect(bad.json()).toEqual({
      detail: 'X-Team-Id must be a team id (a positive integer).',
      code: 'validation_failed',
      field: 'headers.x-team-id',
    });
    const outsider = await member(t, 'Enterprise');
    expect(summary(await inject('GET', '/api/team', as(outsider, teamId)))).toEqual([404, 'team_not_found']);
  });

  it('changes roles (never the owner’s), removes members, and lets members leave', async () => {
    const teamId = await teamWithRoles(t, users, 'Roles');
    // Both are cached as they are now (the guard caches memberships): every change must clear it.
    expect((await inject('GET', '/api/team', as(users.viewer, teamId))).json().your_role).toBe('viewer');
    expect((await inject('GET', '/api/team', as(users.editor, teamId))).json().your_role).toBe('editor');
    const promote = await inject(
      'PATCH',
      `/api/team/members/${users.viewer.userId}`,
      as(users.admin, teamId),
      {
        role: 'editor',
      },
    );
    expect(promote.statusCode).toBe(200);
    expect(
      promote.json().members.find((m: { user_id: number }) => m.user_id === users.viewer.userId).role,
    ).toBe('editor');
    expect((await inject('GET', '/api/team', as(users.viewer, teamId))).json().your_role).toBe('editor');
    const owner = await inject('PATCH', `/api/team/members/${users.owner.userId}`, as(users.admin, teamId), {
      role: 'viewer',
    });
    expect(summary(owner)).toEqual([409, 'owner_role_fixed']);
    const toOwner = await inject(
      'PATCH',
      `/api/team/members/${users.viewer.userId}`,
      as(users.owner, teamId),
      {
        role: 'owner',
      },
    );
    expect(toOwner.statusCode).toBe(422);
    expect(
      summary(await inject('DELETE', `/api/team/members/${users.owner.userId}`, as(users.admin, teamId))),
    ).toEqual([409, 'owner_cannot_leave']);
    expect(
      summary(await inject('DELETE', `/api/team/members/${users.admin.userId}`, as(users.admin, teamId))),
    ).toEqual([409, 'use_leave']);
    const removed = await inject(
      'DELETE',
      `/api/team/members/${users.editor.userId}`,
      as(users.admin, teamId),
    );
    expect(removed.json()).toEqual({ status: 'removed' });
    expect(summary(await inject('GET', '/api/team', as(users.editor, teamId)))).toEqual([
      404,
      'team_not_found',
    ]);
    expect((await inject('POST', '/api/team/leave', as(users.viewer, teamId))).json()).toEqual({
      status: 'left',
    });
    const left = (await inject('GET', '/api/team', as(users.owner, teamId))).json();
    expect(left.members.map((m: { role: string }) => m.role)).toEqual(['owner', 'admin']);
  });

  it('transfers ownership to an Enterprise admin only; the old owner becomes admin', async () => {
    const owner = await member(t, 'Enterprise');
    const next = await member(t);
    const editor = await member(t);
    const teamId = await createTeam(t, owner, 'Transfer');
    await join(t, teamId, owner, next, 'admin');
    await join(t, teamId, owner, editor, 'editor');
    expect(
      summary(await inject('POST', '/api/team/transfer', as(owner, teamId), { user_id: editor.userId })),
    ).toEqual([409, 'transfer_target_not_admin']);
    expect(
      summary(await inject('POST', '/api/team/transfer', as(owner, teamId), { user_id: next.userId })),
    ).toEqual([409, 'transfer_target_plan']);
    await t.accounts.accounts.updatePlan(next.userId, { plan: 'Enterprise' });
    const done = await inject('POST', '/api/team/transfer', as(owner, teamId), { user_id: next.userId });
    expect(done.statusCode).toBe(200);
    expect(
      done
        .json()
        .members.map((m: { user_id: number; role: string }) => [m.user_id, m.role])
        .sort(),
    ).toEqual(
      [
        [next.userId, 'owner'],
        [owner.userId, 'admin'],
        [editor.userId, 'editor'],
      ].sort(),
    );
    expect(summary(await inject('DELETE', '/api/team', as(owner, teamId)))).toEqual([403, 'role_forbidden']);
  });

  it('a downgrade cancels the team (403 plan_upgrade_required, nothing deleted); an upgrade restores it', async () => {
    const owner = await member(t, 'Enterprise');
    const viewer = await member(t);
    const teamId = await createTeam(t, owner, 'Downgrade');
    await join(t, teamId, owner, viewer, 'viewer');
    const keyRes = await inject('POST', '/api/keys', as(owner, teamId), {
      name: 'game server',
      scopes: ['read', 'sdk:ingest'],
    });
    const secret = keyRes.json().key as string;
    const patch = await inject('PATCH', `/api/admin/users/${owner.userId}`, as(admin), { plan: 'Studio' });
    expect(patch.statusCode).toBe(200);
    const refused = await inject('GET', '/api/team', as(viewer, teamId));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'plan_upgrade_required', required_plan: 'Enterprise' });
    expect(summary(await inject('GET', '/api/alerts/my', as(viewer, teamId)))).toEqual([
      403,
      'plan_upgrade_required',
    ]);
    const assignment = () =>
      t.app.inject({
        url: '/api/sdk/experiments/onboarding/assignment?player_id=1',
        headers: { 'x-api-key': secret },
      });
    expect(summary(await assignment())).toEqual([403, 'plan_upgrade_required']);
    const memberships = (await inject('GET', '/api/team/memberships', as(viewer))).json().teams;
    expect(memberships.find((m: { id: number }) => m.id === teamId).status).toBe('cancelled');
    await inject('PATCH', `/api/admin/users/${owner.userId}`, as(admin), { plan: 'Enterprise' });
    expect((await assignment()).statusCode).not.toBe(403);
    const back = await inject('GET', '/api/team', as(viewer, teamId));
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ status: 'active', seats_used: 2 });
    const audit = (await inject('GET', '/api/team/audit?action=plan.changed', as(owner, teamId))).json()
      .entries;
    expect(audit.map((e: { before: unknown; after: unknown }) => [e.before, e.after])).toEqual([
      [
        { plan: 'Studio', subscription_status: 'active' },
        { plan: 'Enterprise', subscription_status: 'active' },
      ],
      [
        { plan: 'Enterprise', subscription_status: 'active' },
        { plan: 'Studio', subscription_status: 'active' },
      ],
    ]);
  });

  it('deletes a team with everything it owns, all at once; the audit log keeps its entries', async () => {
    const owner = await member(t, 'Enterprise');
    const teamId = await createTeam(t, owner, 'Doomed');
    await inject('POST', '/api/keys', as(owner, teamId), { name: 'k', scopes: ['sdk:ingest'] });
    const count = async (sql: string) => (await t.testDb.db.query<{ n: number }>(sql, [teamId])).rows[0]!.n;
    expect(await count('SELECT count(*)::int AS n FROM api_keys WHERE team_id = $1')).toBe(1);
    expect((await inject('DELETE', '/api/team', as(owner, teamId))).json()).toEqual({ status: 'deleted' });
    expect(await count('SELECT count(*)::int AS n FROM api_keys WHERE team_id = $1')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM team_members WHERE team_id = $1')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM teams WHERE id = $1')).toBe(0);
    const kept = (
      await t.testDb.db.query<{ action: string }>(
        'SELECT action FROM audit_log WHERE team_id = $1 ORDER BY id',
        [teamId],
      )
    ).rows.map((r) => r.action);
    expect(kept).toEqual(['team.created', 'api_key.created', 'team.deleted']);
    expect(summary(await inject('DELETE', '/api/team', as(owner)))).toEqual([409, 'personal_team']);
  });

  it('purges invitations that ended more than 30 days ago, daily', async () => {
    const owner = await member(t, 'Enterprise');
    const teamId = await createTeam(t, owner, 'Purge');
    const who = await member(t);
    await inject('POST', '/api/team/invites', as(owner, teamId), { email: who.email, role: 'viewer' });
    const invites = async () =>
      (
        await t.testDb.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM team_invites WHERE team_id = $1',
          [teamId],
        )
      ).rows[0]!.n;
    const { purgeRefreshTokensJob } = await import('../jobs/index.js');
    const job = purgeRefreshTokensJob(t.accounts.accounts, t.services.teams);
    await job.run(new Date('2026-07-08T10:00:00Z'), new AbortController().signal);
    expect(await invites()).toBe(1);
    await job.run(new Date('2026-07-08T10:00:01Z'), new AbortController().signal);
    expect(await invites()).toBe(0);
  });

  it('names every other refusal with its code', async () => {
    const owner = await member(t, 'Enterprise');
    const teamId = await createTeam(t, owner, 'Refusals');
    const personal = (await inject('GET', '/api/team/memberships', as(owner))).json().teams[0].id as number;
    // Invitations: on a personal team, when every seat is taken, and one that is not there.
    expect(
      (
        await inject('POST', '/api/team/invites', as(owner), { email: 'x@example.com', role: 'viewer' })
      ).json(),
    ).toEqual({
      detail: 'This is your personal team: it has no other members. Create a team to invite people.',
      code: 'personal_team',
    });
    await inject('PATCH', `/api/admin/teams/${teamId}`, as(admin), { seats: 1 });
    expect(
      (
        await inject('POST', '/api/team/invites', as(owner, teamId), {
          email: 'y@example.com',
          role: 'viewer',
        })
      ).json(),
    ).toEqual({
      detail: 'Every seat of this team is taken (1); remove a member or ask for more seats.',
      code: 'team_full',
    });
    const reset = await inject('PATCH', `/api/admin/teams/${teamId}`, as(admin), { seats: null });
    expect(reset.json()).toMatchObject({ seats: 25, seats_used: 1 });
    expect((await inject('DELETE', '/api/team/invites/999999', as(owner, teamId))).json()).toEqual({
      detail: 'No pending invitation of this team has this id.',
      code: 'invite_not_found',
    });
    // Seats: not for a personal team, not for a team that does not exist.
    expect(summary(await inject('PATCH', `/api/admin/teams/${personal}`, as(admin), { seats: 3 }))).toEqual([
      409,
      'personal_team',
    ]);
    expect((await inject('PATCH', '/api/admin/teams/999999', as(admin), { seats: 3 })).json()).toEqual({
      detail: 'No team has this id.',
      code: 'team_not_found',
    });
    // Transfer to yourself.
    expect(
      summary(await inject('POST', '/api/team/transfer', as(owner, teamId), { user_id: owner.userId })),
    ).toEqual([409, 'already_owner']);
    // An API key acts in its own team only.
    const key = (
      await inject('POST', '/api/keys', as(owner, teamId), { name: 'k', scopes: ['read', 'sdk:ingest'] })
    ).json();
    const other = await t.app.inject({
      url: '/api/sdk/experiments/onboarding/assignment?player_id=1',
      headers: { 'x-api-key': key.key, 'x-team-id': String(personal) },
    });
    expect(other.json()).toEqual({
      detail: 'An API key acts only in the team it belongs to.',
      code: 'api_key_team_mismatch',
    });
    // At most 10 owned teams (this owner has 1).
    for (let i = 2; i <= 10; i++) await createTeam(t, owner, `Owned ${i}`);
    expect((await inject('POST', '/api/team', as(owner), { name: 'Eleventh' })).json()).toEqual({
      detail: 'You can own at most 10 teams; delete one first.',
      code: 'limit_reached',
    });
  });

  it('takes no new member into a cancelled team', async () => {
    const owner = await member(t, 'Enterprise');
    const teamId = await createTeam(t, owner, 'Cancelled');
    const who = await member(t);
    await inject('POST', '/api/team/invites', as(owner, teamId), { email: who.email, role: 'viewer' });
    const token = await inviteToken(t, who.email);
    await t.accounts.accounts.updatePlan(owner.userId, { plan: 'Studio' });
    const res = await inject('POST', '/api/team/accept', as(who), { token });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      detail: "This team is cancelled: its owner's plan is no longer Enterprise, so it takes no new members.",
      code: 'plan_upgrade_required',
      required_plan: 'Enterprise',
    });
    await t.accounts.accounts.updatePlan(owner.userId, { plan: 'Enterprise' });
    expect((await inject('POST', '/api/team/accept', as(who), { token })).statusCode).toBe(200);
  });
});
