/** The genre list every filter reads (one cache entry for every page) and its <option>s. */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

/** GET /api/genre-opportunities, kept 10 minutes: the genres' keys and display names. */
export function useGenreList() {
  return useQuery({
    queryKey: ['genres', 'names'],
    queryFn: () => unwrap(api.GET('/api/genre-opportunities')),
    staleTime: 10 * 60_000,
  });
}

/** An empty choice (value '', "All genres" unless `allLabel` says) and one option per genre key, named for people. */
export function GenreOptions({ allLabel = 'All genres' }: { allLabel?: string }) {
  const genres = useGenreList();
  return (
    <>
      <option value="">{allLabel}</option>
      {(genres.data ?? []).map((g) => (
        <option key={g.name} value={g.name}>
          {g.display_name}
        </option>
      ))}
    </>
  );
}
