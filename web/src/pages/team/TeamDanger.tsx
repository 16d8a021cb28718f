/**
 * Ownership and leaving: transfer ownership to an admin (ownership.transfer), leave the team
 * (team.leave), delete it, confirmed by typing its name (team.delete). Leaving or deleting goes
 * back to the personal team.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorState } from '../../components/states';
import { useMe } from '../../lib/session';
import { can, MEMBERSHIPS_KEY, selectTeam, type Team } from '../../lib/team';
import { useSetTeam } from './use-set-team';

/** Back to the personal team once this one is no longer ours. */
function useGone(): () => Promise<void> {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: MEMBERSHIPS_KEY });
    selectTeam(null);
  };
}

function Transfer({ team }: { team: Team }) {
  const me = useMe().data;
  const setTeam = useSetTeam();
  const admins = team.members.filter((m) => m.role === 'admin' && m.user_id !== me?.id);
  const [target, setTarget] = useState('');
  const transfer = useMutation({
    mutationFn: (user_id: number) => unwrap(api.POST('/api/team/transfer', { body: { user_id } })),
    onSuccess: (t) => {
      setTarget('');
      setTeam(t);
    },
  });
  const chosen = admins.find((a) => String(a.user_id) === target);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!chosen) return;
    if (window.confirm(`Make ${chosen.email} the owner of ${team.name}? You become an admin.`)) {
      transfer.mutate(chosen.user_id);
    }
  };
  return (
    <form className="stack" onSubmit={submit} aria-labelledby="transfer-heading">
      <h3 id="transfer-heading">Transfer ownership</h3>
      {admins.length === 0 ? (
        <p className="muted">
          Ownership goes to an admin on the Enterprise plan: make a member an admin first.
        </p>
      ) : (
        <div className="row">
          <label>
            New owner
            <select value={target} onChange={(e) => setTarget(e.target.value)} required>
              <option value="">Choose an admin</option>
              {admins.map((a) => (
                <option key={a.user_id} value={a.user_id}>
                  {a.email}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button" disabled={!chosen || transfer.isPending}>
            {transfer.isPending ? 'Transferring…' : 'Transfer ownership'}
          </button>
        </div>
      )}
      {transfer.error ? <ErrorState error={transfer.error} /> : null}
    </form>
  );
}

function Leave({ team }: { team: Team }) {
  const gone = useGone();
  const leave = useMutation({
    mutationFn: () => unwrap(api.POST('/api/team/leave')),
    onSuccess: gone,
  });
  return (
    <div className="stack">
      <h3>Leave the team</h3>
      <p className="muted">What you created stays with {team.name}.</p>
      <div className="row">
        <button
          type="button"
          className="button danger"
          disabled={leave.isPending}
          onClick={() => {
            if (window.confirm(`Leave ${team.name}? You need a new invitation to come back.`)) leave.mutate();
          }}
        >
          {leave.isPending ? 'Leaving…' : 'Leave the team'}
        </button>
      </div>
      {leave.error ? <ErrorState error={leave.error} /> : null}
    </div>
  );
}

function Delete({ team }: { team: Team }) {
  const gone = useGone();
  const [typed, setTyped] = useState('');
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/team')),
    onSuccess: gone,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed === team.name) remove.mutate();
  };
  return (
    <form className="stack" onSubmit={submit} aria-labelledby="delete-heading">
      <h3 id="delete-heading">Delete the team</h3>
      <p className="muted">
        Its tracked games, alerts, webhooks, Dev Lens reports, API keys and SDK analytics are deleted with it,
        for every member. The audit log keeps its entries.
      </p>
      <div className="row">
        <label>
          Type the team’s name, {team.name}, to confirm
          <input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
        </label>
        <button type="submit" className="button danger" disabled={typed !== team.name || remove.isPending}>
          {remove.isPending ? 'Deleting…' : 'Delete the team'}
        </button>
      </div>
      {remove.error ? <ErrorState error={remove.error} /> : null}
    </form>
  );
}

export function TeamDanger({ team }: { team: Team }) {
  const transfer = can(team, 'ownership.transfer');
  const leave = can(team, 'team.leave');
  const del = can(team, 'team.delete') && !team.personal;
  if (!transfer && !leave && !del) return null;
  return (
    <section className="card stack" aria-labelledby="ownership-heading">
      <h2 id="ownership-heading">Ownership and leaving</h2>
      {transfer ? <Transfer team={team} /> : null}
      {leave ? <Leave team={team} /> : null}
      {del ? <Delete team={team} /> : null}
    </section>
  );
}
