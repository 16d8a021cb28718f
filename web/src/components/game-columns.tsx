/** The rank and game (linked, with its creator) columns every game table starts with. */
import { Link } from 'react-router';
import type { Column } from './DataTable';

interface RankedGame {
  rank: number;
  place_id: number;
  name: string;
  creator: string;
}

export function rankAndGameColumns<T extends RankedGame>(): Column<T>[] {
  return [
    { key: 'rank', header: '#', cell: (g) => g.rank, sort: (g) => g.rank, numeric: true },
    {
      key: 'name',
      header: 'Game',
      cell: (g) => (
        <span>
          <Link to={`/games/${g.place_id}`}>{g.name}</Link>
          <br />
          <span className="muted small">by {g.creator}</span>
        </span>
      ),
      sort: (g) => g.name.toLowerCase(),
    },
  ];
}
