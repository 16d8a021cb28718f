/**
 * Team: with the personal team chosen, the teams you are in and a form to create one (Enterprise);
 * with a shared team chosen (the switcher), its settings, members, invitations, ownership and
 * leaving. Controls follow `your_permissions` from GET /api/team, never a role name.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, QueryView, UpgradeCard } from '../../components/states';
import { Time } from '../../components/Time';
import { formatInteger } from '../../lib/format';
import { RequireAuth, useMe } from '../../lib/session';
import {
  can,
  MEMBERSHIPS_KEY,
  type Membership,
  selectTeam,
  type Team,
  useMemberships,
  useTeam,
  useTeamId,
} from '../../lib/team';
import { ROLE_LABEL } from './roles';
import { TeamDanger } from './TeamDanger';
import { TeamMembers } from './TeamMembers';
import { useSetTeam } from './use-set-team';

const TEAM_COLUMNS: Column<Membership>[] = [
  { key: 'team', header: 'Team', cell: (t) => (t.personal ? 'Personal (just you)' : t.name) },
  { key: 'role', header: 'Your role', cell: (t) => ROLE_LABEL[t.role] },
  { key: 'members', header: 'Members', numeric: true, cell: (t) => formatInteger(t.members) },
  {
    key: 'status',
    header: 'Status',
    cell: (t) => (t.status === 'cancelled' ? <span className="bad">Cancelled</span> : 'Active'),
  },
  { key: 'joined', header: 'Joined', cell: (t) => <Time at={t.joined_at} /> },
  {
    key: 'actions',
    header: 'Actions',
    cell: (t) =>
      t.personal ? null : (
        <button type="button" className="button" onClick={() => selectTeam(t.id)}>
          Open<span className="sr-only"> {t.name}</span>
        </button>
      ),
  },
];

function TeamsTable({ teams }: { teams: Membership[] }) {
  return (
    <DataTable
      rows={teams}
      columns={TEAM_COLUMNS}
      rowKey={(t) => t.id}
      caption="The teams you are in"
      testId="memberships-table"
    />
  );
}

function CreateTeam() {
  const me = useMe().data;
  const client = useQueryClient();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: (body: { name: string }) => unwrap(api.POST('/api/team', { body })),
    onSuccess: async (team) => {
      // The switcher drops a team missing from the list it has: refresh the list first.
      await client.invalidateQueries({ queryKey: MEMBERSHIPS_KEY });
      selectTeam(team.id);
    },
  });
  if (me?.plan !== 'Enterprise') {
    return (
      <UpgradeCard plan="Enterprise" feature="Shared teams">
        Invite your studio, give each person a role, and keep games, alerts, reports and keys in one team. An
        invitation you receive can be accepted on any plan.
      </UpgradeCard>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ name: name.trim() });
  };
  return (
    <form className="stack" onSubmit={submit} aria-labelledby="create-team-heading" data-testid="create-team">
      <h3 id="create-team-heading">Create a team</h3>
      <p className="muted">You become its owner; invite people once it exists.</p>
      <label>
        Team name
        <input name="name" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      {create.error ? <ErrorState error={create.error} /> : null}
      <div className="row">
        <button type="submit" className="button primary" disabled={create.isPending || !name.trim()}>
          {create.isPending ? 'Creating…' : 'Create team'}
        </button>
      </div>
    </form>
  );
}

function YourTeams() {
  const memberships = useMemberships();
  return (
    <section className="card stack" aria-labelledby="teams-heading">
      <h2 id="teams-heading">Your teams</h2>
      <p className="muted">
        You are acting in your personal team. Open a shared team here or choose it in the team menu at the
        top: tracked games, alerts, reports, keys and SDK analytics then belong to that team.
      </p>
      <QueryView
        query={memberships}
        label="Loading your teams"
        empty={(data) =>
          data.teams.every((t) => t.personal) ? (
            <Empty title="You are not in a shared team yet">
              Create one below, or open the invitation link mailed to you.
            </Empty>
          ) : null
        }
      >
        {(data) => <TeamsTable teams={data.teams} />}
      </QueryView>
      <CreateTeam />
    </section>
  );
}

function RenameForm({ team }: { team: Team }) {
  const setTeam = useSetTeam();
  const [name, setName] = useState(team.name);
  const rename = useMutation({
    mutationFn: (body: { name: string }) => unwrap(api.PATCH('/api/team', { body })),
    onSuccess: setTeam,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate({ name: name.trim() });
  };
  return (
    <form className="row" onSubmit={submit} aria-label="Rename the team">
      <label>
        Team name
        <input
          name="name"
          required
          maxLength={80}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            rename.reset();
          }}
        />
      </label>
      <button
        type="submit"
        className="button"
        disabled={rename.isPending || !name.trim() || name.trim() === team.name}
      >
        {rename.isPending ? 'Saving…' : 'Rename'}
      </button>
      <span role="status" className="small">
        {rename.isSuccess ? <span className="good">Renamed</span> : null}
      </span>
      {rename.error ? <ErrorState error={rename.error} /> : null}
    </form>
  );
}

function TeamSettings({ team }: { team: Team }) {
  const id = useId();
  return (
    <section className="card stack" aria-labelledby={id} data-testid="team-settings">
      <h2 id={id}>{team.name}</h2>
      <div className="stats">
        <div className="stat">
          <div className="label">Status</div>
          <div className="value" data-testid="team-status">
            {team.status === 'cancelled' ? 'Cancelled' : 'Active'}
          </div>
          {team.status === 'cancelled' ? (
            <div className="note">The owner’s plan is no longer Enterprise; nothing was deleted.</div>
          ) : null}
        </div>
        <div className="stat">
          <div className="label">Plan</div>
          <div className="value">{team.plan}</div>
          <div className="note">The owner’s plan</div>
        </div>
        <div className="stat">
          <div className="label">Seats</div>
          <div className="value" data-testid="team-seats">
            {formatInteger(team.seats_used)} of {formatInteger(team.seats)}
          </div>
          <div className="note">used, the owner included</div>
        </div>
        <div className="stat">
          <div className="label">Your role</div>
          <div className="value" data-testid="team-role">
            {team.your_role ? ROLE_LABEL[team.your_role] : 'Service administrator'}
          </div>
        </div>
      </div>
      {can(team, 'settings.manage') ? <RenameForm key={team.name} team={team} /> : null}
    </section>
  );
}

function SharedTeam() {
  const team = useTeam();
  return (
    <QueryView query={team} label="Loading the team">
      {(t) => (
        <>
          <TeamSettings team={t} />
          <TeamMembers team={t} />
          <TeamDanger team={t} />
        </>
      )}
    </QueryView>
  );
}

function TeamPage() {
  const teamId = useTeamId();
  const team = useTeam(teamId !== null);
  const me = useMe().data;
  // The audit log: in a shared team when the role reads it; in the personal team on Enterprise.
  const audit = teamId === null ? me?.plan === 'Enterprise' : can(team.data, 'audit.read');
  return (
    <div className="page team-page">
      <PageHeader title="Team">
        {audit ? (
          <Link className="button" to="/team/audit">
            Audit log
          </Link>
        ) : null}
      </PageHeader>
      {teamId === null ? <YourTeams /> : <SharedTeam />}
    </div>
  );
}

export function Component() {
  return (
    <RequireAuth>
      <TeamPage />
    </RequireAuth>
  );
}
