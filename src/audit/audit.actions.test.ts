/**
 * Every action the audit log documents (AUDIT_ACTIONS) is written by the request that does it,
 * with its actor, target and before/after exactly: one team's life from creation to deletion,
 * read back through the service administrators' log (the team is gone by then).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { as, createTeam, join, type Member, member } from '../../test/helpers/teams.js';
import { fixedClock } from '../clock.js';
import { AUDIT_ACTIONS } from './audit.schemas.js';

interface Entry {
  action: string;
  actor_id: number | null;
  target_type: string | null;
  target_id: string | null;
  before: unknown;
  after: unknown;
}

describe.each(testEngines())('every audited action (%s)', (engine) => {
  const clock = fixedClock('2026-06-01T10:00:00Z');
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ engine, clock, env: { PUBLIC_URL: 'https://svc.example' } });
  });
  afterAll(() => t.close());

  const send = async (method: string, url: string, who: Member, payload?: object, teamId?: number) => {
    const res = await t.app.inject({
      method: method as 'POST',
      url,
      headers: { ...as(who, teamId), 'user-agent': 'Audit Test/1.0' },
      ...(payload ? { payload } : {}),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  it('writes each one, once, with who, what and before/after', async () => {
    const owner = await member(t, 'Enterprise');
    const admin = await member(t);
    const viewer = await member(t);
    const removed = await member(t);
    const service = await member(t, 'Explorer', true);

    const teamId = await createTeam(t, owner, 'Coverage');
    await send('PATCH', '/api/team', owner, { name: 'Covered' }, teamId);
    await send('PATCH', `/api/admin/teams/${teamId}`, service, { seats: 5 });
    await join(t, teamId, owner, admin, 'admin');
    const cancelled = await send(
      'POST',
      '/api/team/invites',
      owner,
      { email: viewer.email, role: 'viewer' },
      teamId,
    );
    await send('DELETE', `/api/team/invites/${cancelled.id}`, owner, undefined, teamId);
    await join(t, teamId, owner, viewer, 'viewer');
    await join(t, teamId, owner, removed, 'viewer');
    await send('PATCH', `/api/team/members/${viewer.userId}`, admin, { role: 'editor' }, teamId);
    const key = await send('POST', '/api/keys', admin, { name: 'server', scopes: ['read'] }, teamId);
    await send('DELETE', `/api/keys/${key.id}`, admin, undefined, teamId);
    await send('POST', '/api/team/leave', viewer, undefined, teamId);
    await send('DELETE', `/api/team/members/${removed.userId}`, admin, undefined, teamId);
    await send('PATCH', `/api/admin/users/${owner.userId}`, service, { subscription_status: 'trialing' });
    await t.accounts.accounts.updatePlan(admin.userId, { plan: 'Enterprise' });
    await send('POST', '/api/team/transfer', owner, { user_id: admin.userId }, teamId);
    // The new owner changes their password, forgets it, resets it and signs in with it.
    const changed = await send('POST', '/api/auth/password/change', admin, {
      current_password: admin.password,
      new_password: 'a brand new password 1',
    });
    const now = { ...admin, token: changed.access_token as string };
    await t.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email: admin.email } });
    const mail = (
      await t.testDb.db.query<{ body: string }>(
        'SELECT body FROM outbox WHERE to_address = $1 ORDER BY id DESC',
        [admin.email],
      )
    ).rows[0]!.body;
    const token = /reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mail)![1]!;
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/password/reset',
      headers: { 'user-agent': 'Audit Test/1.0' },
      payload: { token, password: 'the reset password 22' },
    });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'user-agent': 'Audit Test/1.0' },
      payload: { email: admin.email, password: 'the reset password 22' },
    });
    expect(login.statusCode).toBe(200);
    await send('DELETE', '/api/team', { ...now, token: login.json().access_token }, undefined, teamId);

    const log = await send('GET', `/api/admin/audit?team_id=${teamId}&limit=200`, service);
    const entries = (log.entries as (Entry & { user_agent: string | null; ip: string })[]).reverse();
    const acceptedInvites = entries
      .filter((e) => e.action === 'invite.accepted')
      .map((e) => (e.after as { invite_id: number }).invite_id);
    const projected = entries.map((e) => ({
      action: e.action,
      actor_id: e.actor_id,
      target_type: e.target_type,
      target_id: e.target_id,
      before: e.before,
      after: e.after,
    }));
    const user = (m: Member) => String(m.userId);
    expect(projected).toEqual([
      {
        action: 'team.created',
        actor_id: owner.userId,
        target_type: 'team',
        target_id: String(teamId),
        before: null,
        after: { name: 'Coverage' },
      },
      {
        action: 'team.renamed',
        actor_id: owner.userId,
        target_type: 'team',
        target_id: String(teamId),
        before: { name: 'Coverage' },
        after: { name: 'Covered' },
      },
      {
        action: 'team.seats_changed',
        actor_id: service.userId,
        target_type: 'team',
        target_id: String(teamId),
        before: { seats: null },
        after: { seats: 5 },
      },
      {
        action: 'invite.created',
        actor_id: owner.userId,
        target_type: 'invite',
        target_id: expect.any(String),
        before: null,
        after: { email: admin.email, role: 'admin' },
      },
      {
        action: 'invite.accepted',
        actor_id: admin.userId,
        target_type: 'user',
        target_id: user(admin),
        before: null,
        after: { email: admin.email, role: 'admin', invite_id: acceptedInvites[0] },
      },
      {
        action: 'invite.created',
        actor_id: owner.userId,
        target_type: 'invite',
        target_id: String(cancelled.id),
        before: null,
        after: { email: viewer.email, role: 'viewer' },
      },
      {
        action: 'invite.revoked',
        actor_id: owner.userId,
        target_type: 'invite',
        target_id: String(cancelled.id),
        before: { email: viewer.email, role: 'viewer' },
        after: null,
      },
      {
        action: 'invite.created',
        actor_id: owner.userId,
        target_type: 'invite',
        target_id: expect.any(String),
        before: null,
        after: { email: viewer.email, role: 'viewer' },
      },
      {
        action: 'invite.accepted',
        actor_id: viewer.userId,
        target_type: 'user',
        target_id: user(viewer),
        before: null,
        after: { email: viewer.email, role: 'viewer', invite_id: acceptedInvites[1] },
      },
      {
        action: 'invite.created',
        actor_id: owner.userId,
        target_type: 'invite',
        target_id: expect.any(String),
        before: null,
        after: { email: removed.email, role: 'viewer' },
      },
      {
        action: 'invite.accepted',
        actor_id: removed.userId,
        target_type: 'user',
        target_id: user(removed),
        before: null,
        after: { email: removed.email, role: 'viewer', invite_id: acceptedInvites[2] },
      },
      {
        action: 'member.role_changed',
        actor_id: admin.userId,
        target_type: 'user',
        target_id: user(viewer),
        before: { email: viewer.email, role: 'viewer' },
        after: { email: viewer.email, role: 'editor' },
      },
      {
        action: 'api_key.created',
        actor_id: admin.userId,
        target_type: 'api_key',
        target_id: String(key.id),
        before: null,
        after: { name: 'server', prefix: key.prefix, scopes: ['read'] },
      },
      {
        action: 'api_key.revoked',
        actor_id: admin.userId,
        target_type: 'api_key',
        target_id: String(key.id),
        before: { name: 'server', prefix: key.prefix, scopes: ['read'] },
        after: null,
      },
      {
        action: 'member.left',
        actor_id: viewer.userId,
        target_type: 'user',
        target_id: user(viewer),
        before: { email: viewer.email, role: 'editor' },
        after: null,
      },
      {
        action: 'member.removed',
        actor_id: admin.userId,
        target_type: 'user',
        target_id: user(removed),
        before: { email: removed.email, role: 'viewer' },
        after: null,
      },
      {
        action: 'plan.changed',
        actor_id: service.userId,
        target_type: 'user',
        target_id: user(owner),
        before: { plan: 'Enterprise', subscription_status: 'active' },
        after: { plan: 'Enterprise', subscription_status: 'trialing' },
      },
      {
        action: 'ownership.transferred',
        actor_id: owner.userId,
        target_type: 'user',
        target_id: user(admin),
        before: { owner_id: owner.userId, owner_email: owner.email },
        after: { owner_id: admin.userId, owner_email: admin.email },
      },
      {
        action: 'password.changed',
        actor_id: admin.userId,
        target_type: 'user',
        target_id: user(admin),
        before: null,
        after: null,
      },
      {
        action: 'password.reset',
        actor_id: admin.userId,
        target_type: 'user',
        target_id: user(admin),
        before: null,
        after: null,
      },
      {
        action: 'member.signed_in',
        actor_id: admin.userId,
        target_type: 'user',
        target_id: user(admin),
        before: null,
        after: { method: 'password' },
      },
      {
        action: 'team.deleted',
        actor_id: admin.userId,
        target_type: 'team',
        target_id: String(teamId),
        before: { name: 'Covered', members: 2 },
        after: null,
      },
    ]);
    // Every documented action appears; every entry carries the request's IP and user agent.
    expect(new Set(projected.map((e) => e.action))).toEqual(new Set(AUDIT_ACTIONS));
    expect(entries.every((e) => e.ip === '127.0.0.1' && e.user_agent !== null)).toBe(true);
    expect(entries.filter((e) => e.action.startsWith('password.')).map((e) => e.user_agent)).toEqual([
      'Audit Test/1.0',
      'Audit Test/1.0',
    ]);
  });
});
