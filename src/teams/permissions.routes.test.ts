/**
 * Every role × every permission of the table in roles.ts, through the real routes, on both
 * engines. The probes are a Record over the permissions, so a permission added to the table
 * without a probe does not compile, and the cases are generated from the table itself.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { as, type Member, type RoleSet, roleUsers, teamWithRoles } from '../../test/helpers/teams.js';
import { can, PERMISSION_NAMES, PERMISSIONS, type Permission, ROLES } from '../roles.js';

interface Probe {
  /** The answer when the role holds the permission (a 404 proves the guard let the call through). */
  allowed: [number, string | undefined];
  /** The call changes the team (leave, delete): each case gets a team of its own. */
  fresh?: boolean;
  call(t: TestApp, m: Member, teamId: number): Promise<LightMyRequestResponse>;
}

const NOBODY = 999_999;

const PROBES: Record<Permission, Probe> = {
  'content.read': {
    allowed: [200, undefined],
    call: (t, m, teamId) => t.app.inject({ url: '/api/alerts/my', headers: as(m, teamId) }),
  },
  'content.write': {
    allowed: [404, 'not_found'],
    call: (t, m, teamId) =>
      t.app.inject({ method: 'DELETE', url: `/api/alerts/${NOBODY}`, headers: as(m, teamId) }),
  },
  'team.read': {
    allowed: [200, undefined],
    call: (t, m, teamId) => t.app.inject({ url: '/api/team', headers: as(m, teamId) }),
  },
  'members.manage': {
    allowed: [404, 'member_not_found'],
    call: (t, m, teamId) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/team/members/${NOBODY}`,
        headers: as(m, teamId),
        payload: { role: 'viewer' },
      }),
  },
  'settings.manage': {
    allowed: [200, undefined],
    call: (t, m, teamId) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/team',
        headers: as(m, teamId),
        payload: { name: 'Matrix' },
      }),
  },
  'keys.manage': {
    allowed: [404, 'not_found'],
    call: (t, m, teamId) =>
      t.app.inject({ method: 'DELETE', url: `/api/keys/${NOBODY}`, headers: as(m, teamId) }),
  },
  'audit.read': {
    allowed: [200, undefined],
    call: (t, m, teamId) => t.app.inject({ url: '/api/team/audit', headers: as(m, teamId) }),
  },
  'team.leave': {
    allowed: [200, undefined],
    fresh: true,
    call: (t, m, teamId) => t.app.inject({ method: 'POST', url: '/api/team/leave', headers: as(m, teamId) }),
  },
  'ownership.transfer': {
    allowed: [404, 'member_not_found'],
    call: (t, m, teamId) =>
      t.app.inject({
        method: 'POST',
        url: '/api/team/transfer',
        headers: as(m, teamId),
        payload: { user_id: NOBODY },
      }),
  },
  'team.delete': {
    allowed: [200, undefined],
    fresh: true,
    call: (t, m, teamId) => t.app.inject({ method: 'DELETE', url: '/api/team', headers: as(m, teamId) }),
  },
};

describe.each(testEngines())('role × permission, from the table (%s)', (engine) => {
  let t: TestApp;
  let users: RoleSet;
  let shared: number;
  beforeAll(async () => {
    t = await buildTestApp({ engine });
    users = await roleUsers(t);
    shared = await teamWithRoles(t, users, 'Matrix');
  });
  afterAll(() => t.close());

  it('has a probe for every permission and every role in the table', () => {
    expect(Object.keys(PROBES).sort()).toEqual([...PERMISSION_NAMES].sort());
    expect([...ROLES]).toEqual(['owner', 'admin', 'editor', 'viewer']);
  });

  for (const permission of PERMISSION_NAMES) {
    for (const role of ROLES) {
      const allowed = can(role, permission);
      it(`${role} ${allowed ? 'may' : 'may not'} ${permission}`, async () => {
        const probe = PROBES[permission];
        const teamId = probe.fresh ? await teamWithRoles(t, users, `Fresh ${permission} ${role}`) : shared;
        const res = await probe.call(t, users[role], teamId);
        if (allowed) {
          expect([res.statusCode, (res.json() as { code?: string }).code]).toEqual(probe.allowed);
        } else {
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual({
            code: 'role_forbidden',
            detail: `Your role in this team (${role}) cannot ${PERMISSIONS[permission]}.`,
          });
        }
        // A team that is still there (not deleted) is left for the next case to reuse or drop.
        if (probe.fresh && !(permission === 'team.delete' && allowed)) {
          const drop = await t.app.inject({
            method: 'DELETE',
            url: '/api/team',
            headers: as(users.owner, teamId),
          });
          expect(drop.statusCode).toBe(200);
        }
      });
    }
  }
});
