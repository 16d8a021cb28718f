/** After a change answered with the team: show the answer, and refresh the switcher's list. */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { MEMBERSHIPS_KEY, type Team, teamKey, useTeamId } from '../../lib/team';

export function useSetTeam(): (team: Team) => void {
  const client = useQueryClient();
  const teamId = useTeamId();
  return useCallback(
    (team: Team) => {
      client.setQueryData(teamKey(teamId), team);
      void client.invalidateQueries({ queryKey: MEMBERSHIPS_KEY });
    },
    [client, teamId],
  );
}

/** After a change answered without the team (invitations, removals): read it again. */
export function useRefetchTeam(): () => Promise<void> {
  const client = useQueryClient();
  const teamId = useTeamId();
  return useCallback(async () => {
    await client.invalidateQueries({ queryKey: teamKey(teamId) });
    void client.invalidateQueries({ queryKey: MEMBERSHIPS_KEY });
  }, [client, teamId]);
}
