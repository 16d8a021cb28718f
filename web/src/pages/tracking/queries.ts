/**
 * The tracking page's queries, shared by its sections (and by UnreadBadge): one key per resource,
 * so a mutation in one section refreshes every other that shows the same data.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { type GameResult, pickUniverse } from './tracking-data';

export const ALERTS_KEY = ['alerts', 'my'] as const;
export const WEBHOOKS_KEY = ['webhooks'] as const;
export const eventsKey = (id: number) => ['alerts', id, 'events'] as const;
export const deliveriesKey = (id: number) => ['webhooks', id, 'deliveries'] as const;
const gameKey = (universeId: number) => ['game-by-universe', universeId] as const;

export function useAlerts(enabled = true) {
  return useQuery({
    queryKey: ALERTS_KEY,
    queryFn: async () => (await unwrap(api.GET('/api/alerts/my'))).alerts,
    enabled,
    // The engine fires every 15 minutes at most; a minute keeps the badge honest without noise.
    refetchInterval: 60_000,
  });
}

/**
 * Name, genre, CCU and place id of each universe. The API has no look-up by universe id, but a
 * numeric search matches one exactly (ranked first), so each id is one small search.
 */
export function useGames(universeIds: readonly number[]) {
  const results = useQueries({
    queries: universeIds.map((id) => ({
      queryKey: gameKey(id),
      queryFn: async (): Promise<GameResult | null> =>
        pickUniverse(
          (await unwrap(api.GET('/api/search', { params: { query: { q: String(id), limit: 5 } } }))).results,
          id,
        ),
      staleTime: 5 * 60_000,
    })),
  });
  const games = new Map<number, GameResult | null>();
  universeIds.forEach((id, i) => {
    const r = results[i];
    if (r?.data !== undefined) games.set(id, r.data);
  });
  return { games, pending: results.some((r) => r.isPending) };
}

/** "Blox Fruits", or "Universe 994732206" while unknown. */
export function gameName(games: Map<number, GameResult | null>, id: number): string {
  return games.get(id)?.name ?? `Universe ${id}`;
}
