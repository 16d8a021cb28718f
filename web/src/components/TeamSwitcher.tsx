/**
 * The team switcher (in the navigation, for users in at least one shared team) and the notice
 * shown while the chosen team is cancelled. A choice that is no longer among the memberships
 * (removed, team deleted) falls back to the personal team.
 */
import { useEffect } from 'react';
import { Link } from 'react-router';
import { choiceGone, selectTeam, useCurrentMembership, useMemberships, useTeamId } from '../lib/team';

export function TeamSwitcher({ onSwitch }: { onSwitch?: () => void }) {
  const teamId = useTeamId();
  const memberships = useMemberships();
  const teams = memberships.data?.teams;
  const gone = choiceGone(teamId, memberships);
  useEffect(() => {
    if (gone) selectTeam(null);
  }, [gone]);
  const shared = teams?.filter((t) => !t.personal) ?? [];
  if (shared.length === 0) return null;
  return (
    <label className="team-switcher">
      <span className="sr-only">Acting in team</span>
      <select
        value={teamId === null ? '' : String(teamId)}
        onChange={(e) => {
          selectTeam(e.target.value ? Number(e.target.value) : null);
          onSwitch?.();
        }}
        data-testid="team-switcher"
      >
        <option value="">Personal</option>
        {shared.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name} ({t.role}
            {t.status === 'cancelled' ? ', cancelled' : ''})
          </option>
        ))}
      </select>
    </label>
  );
}

/** While the chosen team is cancelled, every team surface answers plan_upgrade_required: say why. */
export function CancelledTeamNotice() {
  const team = useCurrentMembership();
  if (team?.status !== 'cancelled') return null;
  return (
    <div className="notice team-notice" role="status" data-testid="team-cancelled">
      <strong>{team.name}</strong> is cancelled: its owner’s plan is no longer Enterprise. Nothing was
      deleted, and it comes back as soon as the owner upgrades.{' '}
      <button type="button" className="button ghost" onClick={() => selectTeam(null)}>
        Switch to your personal team
      </button>{' '}
      <Link to="/team">Your teams</Link>
    </div>
  );
}
