import { describe, expect, it } from 'vitest';
import { createTeamSelection, parseStoredTeam, TEAM_STORAGE_KEY } from './team';

function memoryStore(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

const req = (path: string, init?: RequestInit) => new Request(`http://app.test${path}`, init);
const teamNotFound = () =>
  Response.json(
    { detail: 'You are not a member of a team with this id.', code: 'team_not_found' },
    { status: 404 },
  );

describe('parseStoredTeam', () => {
  it('reads a stored choice and refuses anything else', () => {
    expect(parseStoredTeam('{"user":3,"team":12}')).toEqual({ user: 3, team: 12 });
    expect(parseStoredTeam(null)).toBeNull();
    expect(parseStoredTeam('12')).toBeNull();
    expect(parseStoredTeam('{"user":3}')).toBeNull();
    expect(parseStoredTeam('{"user":3,"team":0}')).toBeNull();
    expect(parseStoredTeam('{"user":"3","team":12}')).toBeNull();
    expect(parseStoredTeam('not json')).toBeNull();
  });
});

describe('createTeamSelection', () => {
  it('sends X-Team-Id on team requests once a shared team is chosen, and none for the personal team', () => {
    const s = createTeamSelection(memoryStore());
    s.setUser(3);
    expect(s.withHeader(req('/api/track/my')).headers.get('x-team-id')).toBeNull();
    s.select(12);
    expect(s.withHeader(req('/api/track/my')).headers.get('x-team-id')).toBe('12');
    expect(s.withHeader(req('/api/team')).headers.get('x-team-id')).toBe('12');
    s.select(null);
    expect(s.withHeader(req('/api/track/my')).headers.get('x-team-id')).toBeNull();
  });

  it('leaves the session, the memberships and accepting an invitation without the header', () => {
    const s = createTeamSelection(memoryStore());
    s.setUser(3);
    s.select(12);
    for (const path of [
      '/api/auth/me',
      '/api/auth/refresh',
      '/api/team/memberships',
      '/api/team/accept',
      '/api/plans',
    ]) {
      expect(s.withHeader(req(path, { method: 'POST' })).headers.get('x-team-id'), path).toBeNull();
    }
  });

  it('keeps a POST body when it adds the header', async () => {
    const s = createTeamSelection(memoryStore());
    s.setUser(3);
    s.select(12);
    const sent = s.withHeader(
      req('/api/alerts', {
        method: 'POST',
        body: '{"a":1}',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(sent.headers.get('x-team-id')).toBe('12');
    expect(sent.headers.get('content-type')).toBe('application/json');
    expect(await sent.text()).toBe('{"a":1}');
  });

  it('remembers the choice per user: another user of the browser acts in their personal team', () => {
    const store = memoryStore();
    const s = createTeamSelection(store);
    s.setUser(3);
    s.select(12);
    expect(JSON.parse(store.data.get(TEAM_STORAGE_KEY)!)).toEqual({ user: 3, team: 12 });
    s.setUser(null);
    expect(s.teamId()).toBeNull();
    s.setUser(4);
    expect(s.teamId()).toBeNull();
    // The first user comes back to their team, also after a reload (a new selection over the store).
    s.setUser(3);
    expect(s.teamId()).toBe(12);
    const reloaded = createTeamSelection(store);
    reloaded.setUser(3);
    expect(reloaded.teamId()).toBe(12);
  });

  it('tells its listeners when the team changes, not when it stays', () => {
    const s = createTeamSelection(memoryStore());
    let calls = 0;
    s.subscribe(() => {
      calls += 1;
    });
    s.setUser(3);
    s.select(12);
    s.select(12);
    s.select(null);
    expect(calls).toBe(2);
  });

  it('falls back to the personal team on 404 team_not_found for the chosen team, not on other 404s', async () => {
    const s = createTeamSelection(memoryStore());
    s.setUser(3);
    s.select(12);
    const sent = s.withHeader(req('/api/track/my'));
    await s.observe(sent, Response.json({ detail: 'No such game', code: 'not_found' }, { status: 404 }));
    expect(s.teamId()).toBe(12);
    await s.observe(req('/api/track/my'), teamNotFound()); // sent without the header: not about the team
    expect(s.teamId()).toBe(12);
    await s.observe(sent, teamNotFound());
    expect(s.teamId()).toBeNull();
  });

  it('works without storage (privacy mode): the choice lasts until a reload', () => {
    const throwing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const s = createTeamSelection(throwing);
    s.setUser(3);
    s.select(12);
    expect(s.teamId()).toBe(12);
  });
});
