/**
 * Members (role changed in place, removal confirmed), pending invitations (cancel) and the invite
 * form. Who may do what comes from the team's `your_permissions` (members.manage).
 */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { Empty, ErrorState } from '../../components/states';
import { Time } from '../../components/Time';
import { useMe } from '../../lib/session';
import { can, type Team } from '../../lib/team';
import { ASSIGNABLE, ASSIGNABLE_ROLES, type AssignableRole, isAssignable, ROLE_LABEL } from './roles';
import { useRefetchTeam, useSetTeam } from './use-set-team';

type Member = Team['members'][number];
type Invite = Team['invites'][number];

function RoleCell({ member, editable }: { member: Member; editable: boolean }) {
  const setTeam = useSetTeam();
  const change = useMutation({
    mutationFn: (role: AssignableRole) =>
      unwrap(
        api.PATCH('/api/team/members/{user_id}', {
          params: { path: { user_id: member.user_id } },
          body: { role },
        }),
      ),
    onSuccess: setTeam,
  });
  if (!editable || !isAssignable(member.role)) return <>{ROLE_LABEL[member.role]}</>;
  return (
    <div className="stack team-role-cell">
      <select
        aria-label={`Role of ${member.email}`}
        value={change.isPending && change.variables ? change.variables : member.role}
        disabled={change.isPending}
        onChange={(e) => {
          if (isAssignable(e.target.value)) change.mutate(e.target.value);
        }}
      >
        {ASSIGNABLE_ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABEL[r]}
          </option>
        ))}
      </select>
      <span role="status" className="small">
        {change.isSuccess ? <span className="good">Saved</span> : null}
      </span>
      {change.error ? <ErrorState error={change.error} /> : null}
    </div>
  );
}

function RemoveButton({ member }: { member: Member }) {
  const refetch = useRefetchTeam();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/api/team/members/{user_id}', { params: { path: { user_id: member.user_id } } })),
    onSuccess: refetch,
  });
  const confirmRemove = () => {
    if (window.confirm(`Remove ${member.email} from the team? What they created stays the team’s.`)) {
      remove.mutate();
    }
  };
  return (
    <>
      <button type="button" className="button danger" onClick={confirmRemove} disabled={remove.isPending}>
        {remove.isPending ? 'Removing…' : 'Remove'}
        <span className="sr-only"> {member.email}</span>
      </button>
      {remove.error ? <ErrorState error={remove.error} /> : null}
    </>
  );
}

function MembersTable({ team }: { team: Team }) {
  const me = useMe().data;
  const manage = can(team, 'members.manage');
  const columns: Column<Member>[] = [
    {
      key: 'email',
      header: 'E-mail',
      cell: (m) => (
        <>
          {m.email}
          {m.user_id === me?.id ? <span className="badge team-you">you</span> : null}
        </>
      ),
    },
    {
      key: 'role',
      header: 'Role',
      cell: (m) => <RoleCell member={m} editable={manage && m.role !== 'owner'} />,
    },
    { key: 'joined', header: 'Joined', cell: (m) => <Time at={m.joined_at} /> },
  ];
  if (manage) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      cell: (m) => (m.role === 'owner' || m.user_id === me?.id ? null : <RemoveButton member={m} />),
    });
  }
  return (
    <DataTable
      rows={team.members}
      columns={columns}
      rowKey={(m) => m.user_id}
      caption={`Members of ${team.name}`}
      testId="team-members"
    />
  );
}

function InvitesTable({ invites, manage }: { invites: Invite[]; manage: boolean }) {
  const refetch = useRefetchTeam();
  const cancel = useMutation({
    mutationFn: (invite_id: number) =>
      unwrap(api.DELETE('/api/team/invites/{invite_id}', { params: { path: { invite_id } } })),
    onSuccess: refetch,
  });
  if (invites.length === 0) return <Empty title="No pending invitations" />;
  const columns: Column<Invite>[] = [
    { key: 'email', header: 'E-mail', cell: (i) => i.email },
    { key: 'role', header: 'Role', cell: (i) => ROLE_LABEL[i.role] },
    { key: 'sent', header: 'Sent', cell: (i) => <Time at={i.created_at} /> },
    { key: 'expires', header: 'Expires', cell: (i) => <Time at={i.expires_at} /> },
  ];
  if (manage) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      cell: (i) => (
        <button
          type="button"
          className="button danger"
          onClick={() => cancel.mutate(i.id)}
          disabled={cancel.isPending && cancel.variables === i.id}
        >
          Cancel<span className="sr-only"> the invitation of {i.email}</span>
        </button>
      ),
    });
  }
  return (
    <div className="stack">
      {cancel.error ? <ErrorState error={cancel.error} /> : null}
      <DataTable
        rows={invites}
        columns={columns}
        rowKey={(i) => i.id}
        caption="Pending invitations"
        testId="team-invites"
      />
    </div>
  );
}

function InviteForm({ team }: { team: Team }) {
  const refetch = useRefetchTeam();
  const id = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AssignableRole>('viewer');
  const invite = useMutation({
    mutationFn: (body: { email: string; role: AssignableRole }) =>
      unwrap(api.POST('/api/team/invites', { body })),
    onSuccess: async () => {
      setEmail('');
      await refetch();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate({ email: email.trim(), role });
  };
  const full = team.seats_used >= team.seats;
  return (
    <form className="stack" onSubmit={submit} aria-labelledby={`${id}-title`} data-testid="invite-form">
      <h3 id={`${id}-title`}>Invite someone</h3>
      <p className="muted small">
        They get a link by e-mail, valid 7 days, and accept it signed in with that address, on any plan.
        Accepting takes a seat.
      </p>
      {full ? (
        <p className="notice">
          Every seat is taken: remove a member, or ask an administrator of this service for more seats.
        </p>
      ) : null}
      <div className="row">
        <label>
          E-mail
          <input
            type="email"
            name="email"
            required
            autoComplete="off"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              invite.reset();
            }}
          />
        </label>
        <label>
          Role
          <select
            name="role"
            value={role}
            onChange={(e) => {
              if (isAssignable(e.target.value)) setRole(e.target.value);
            }}
            aria-describedby={`${id}-role-help`}
          >
            {ASSIGNABLE_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button primary" disabled={invite.isPending || !email.trim()}>
          {invite.isPending ? 'Sending…' : 'Send invitation'}
        </button>
      </div>
      <p id={`${id}-role-help`} className="muted small">
        {ASSIGNABLE[role]}
      </p>
      <p role="status" className="small">
        {invite.isSuccess ? <span className="good">Invitation sent to {invite.data.email}.</span> : null}
      </p>
      {invite.error ? <ErrorState error={invite.error} /> : null}
    </form>
  );
}

export function TeamMembers({ team }: { team: Team }) {
  const manage = can(team, 'members.manage');
  return (
    <section className="card stack" aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      <MembersTable team={team} />
      <h3>Pending invitations</h3>
      <InvitesTable invites={team.invites} manage={manage} />
      {manage ? <InviteForm team={team} /> : null}
    </section>
  );
}
