import { describe, expect, it } from 'vitest';
import {
  type AuditEntry,
  actionLabel,
  attachmentName,
  auditQuery,
  auditTarget,
  badRange,
  describeChange,
  NO_FILTERS,
} from './audit';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  at: '2026-01-02T03:04:05.000Z',
  team_id: 7,
  actor_id: 3,
  actor_email: 'owner@example.com',
  action: 'member.role_changed',
  target_type: 'user',
  target_id: '9',
  ip: '127.0.0.1',
  user_agent: 'test',
  before: null,
  after: null,
  ...over,
});

describe('describeChange', () => {
  it('names only the fields that changed', () => {
    expect(
      describeChange({ email: 'a@example.com', role: 'viewer' }, { email: 'a@example.com', role: 'editor' }),
    ).toBe('role: viewer → editor');
    expect(describeChange({ name: 'Old' }, { name: 'New' })).toBe('name: Old → New');
    expect(describeChange({ seats: 25 }, { seats: null })).toBe('seats: 25 → —');
  });

  it('lists the state after a creation and the state before a removal', () => {
    expect(describeChange(null, { email: 'b@example.com', role: 'viewer' })).toBe(
      'email: b@example.com, role: viewer',
    );
    expect(describeChange(null, { name: 'ci', prefix: 'svc_ab', scopes: ['read', 'sdk:ingest'] })).toBe(
      'name: ci, prefix: svc_ab, scopes: read, sdk:ingest',
    );
    expect(describeChange({ email: 'c@example.com', role: 'editor' }, null)).toBe(
      'was email: c@example.com, role: editor',
    );
  });

  it('is empty when nothing applies, and shows plain values and nested objects compactly', () => {
    expect(describeChange(null, null)).toBe('');
    expect(describeChange('a', 'b')).toBe('a → b');
    expect(describeChange({ limits: { a: 1 } }, { limits: { a: 2 } })).toBe('limits: {"a":1} → {"a":2}');
  });
});

describe('auditTarget', () => {
  it('names a person by address, a key by name, a team by name', () => {
    expect(auditTarget(entry({ after: { email: 'x@example.com', role: 'editor' } }))).toBe('x@example.com');
    expect(auditTarget(entry({ target_type: 'user', target_id: '9' }))).toBe('user 9');
    expect(auditTarget(entry({ target_type: 'invite', after: { email: 'y@example.com' } }))).toBe(
      'invitation of y@example.com',
    );
    expect(auditTarget(entry({ target_type: 'api_key', before: { name: 'ci' } }))).toBe('key “ci”');
    expect(auditTarget(entry({ target_type: 'team', before: { name: 'A' }, after: { name: 'B' } }))).toBe(
      'team “B”',
    );
    expect(auditTarget(entry({ target_type: null, target_id: null }))).toBe('—');
  });

  it('looks up a user the entry does not name by address', () => {
    const members = new Map([['9', 'z@example.com']]);
    const emailOf = (id: string) => members.get(id);
    expect(auditTarget(entry({ action: 'ownership.transferred', target_id: '9' }), emailOf)).toBe(
      'z@example.com',
    );
    expect(auditTarget(entry({ target_id: '10' }), emailOf)).toBe('user 10');
  });
});

describe('auditQuery', () => {
  it('sends only the filters set, dates as the viewer’s whole days', () => {
    expect(auditQuery(NO_FILTERS)).toEqual({});
    expect(auditQuery({ action: 'invite.created', since: '2026-01-02', until: '2026-01-03' })).toEqual({
      action: 'invite.created',
      since: new Date(2026, 0, 2).toISOString(),
      until: new Date(2026, 0, 4).toISOString(),
    });
    expect(auditQuery({ action: '', since: 'garbage', until: '' })).toEqual({});
  });

  it('finds a "to" date before the "from" date', () => {
    expect(badRange({ action: '', since: '2026-01-03', until: '2026-01-02' })).toBe(true);
    expect(badRange({ action: '', since: '2026-01-03', until: '2026-01-03' })).toBe(false);
    expect(badRange({ action: '', since: '', until: '2026-01-02' })).toBe(false);
  });
});

describe('actionLabel and attachmentName', () => {
  it('labels known actions and shows unknown ones as they are', () => {
    expect(actionLabel('member.role_changed')).toBe('Role changed');
    expect(actionLabel('something.new')).toBe('something.new');
  });

  it('takes the file name from Content-Disposition, safely', () => {
    expect(attachmentName('attachment; filename="audit_team-7.csv"')).toBe('audit_team-7.csv');
    expect(attachmentName('attachment; filename=audit.csv')).toBe('audit.csv');
    expect(attachmentName('attachment; filename="../x/y.csv"')).toBe('.._x_y.csv');
    expect(attachmentName(null)).toBe('audit.csv');
  });
});
