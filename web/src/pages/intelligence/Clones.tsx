/**
 * Clone pairs: the look-alike games the collector has detected lately (GET
 * /api/intelligence/clones/recent), and one game's pairs (GET /api/intelligence/clones?place_id=, at
 * /intelligence/clones?place_id=…), each with its evidence.
 */

import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, type Schemas, unwrap } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { GenreOptions } from '../../components/GenreSelect';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading, SignInNotice } from '../../components/states';
import { Time } from '../../components/Time';
import { formatInteger } from '../../lib/format';
import { useMe } from '../../lib/session';

type Pair = Schemas['ClonePair'];
type Side = Pair['original'];

const percent = (x: number) => `${Math.round(x * 100)}%`;

function GameCell({ game }: { game: Side }) {
  return (
    <span>
      <Link to={`/intelligence/clones?place_id=${game.place_id}`}>{game.name}</Link>{' '}
      <span className="muted small">
        by {game.creator} · {game.ccu === null ? 'no reading' : `${formatInteger(game.ccu)} CCU`}
      </span>
    </span>
  );
}

const columns: Column<Pair>[] = [
  {
    key: 'original',
    header: 'Original',
    title: 'The game created first',
    cell: (p) => <GameCell game={p.original} />,
    sort: (p) => p.original.name.toLowerCase(),
  },
  {
    key: 'clone',
    header: 'Clone',
    cell: (p) => <GameCell game={p.clone} />,
    sort: (p) => p.clone.name.toLowerCase(),
  },
  {
    key: 'similarity',
    header: 'Similarity',
    title: 'The higher of the name and description similarity',
    cell: (p) => <strong>{percent(p.evidence.similarity)}</strong>,
    sort: (p) => p.evidence.similarity,
    numeric: true,
  },
  {
    key: 'name',
    header: 'Name',
    cell: (p) => percent(p.evidence.name_similarity),
    sort: (p) => p.evidence.name_similarity,
    numeric: true,
  },
  {
    key: 'description',
    header: 'Description',
    title: 'Compared only when both descriptions are long enough',
    cell: (p) =>
      p.evidence.description_similarity === null ? (
        <span className="muted">—</span>
      ) : (
        percent(p.evidence.description_similarity)
      ),
    sort: (p) => p.evidence.description_similarity,
    numeric: true,
  },
  {
    key: 'creator',
    header: 'Same creator',
    cell: (p) => (p.evidence.same_creator ? 'yes' : 'no'),
    sort: (p) => (p.evidence.same_creator ? 1 : 0),
  },
  {
    key: 'gap',
    header: 'Created after',
    title: 'Days from the original’s creation to the clone’s',
    cell: (p) =>
      p.evidence.creation_gap_days === null ? (
        <span className="muted">unknown</span>
      ) : (
        `${p.evidence.creation_gap_days} days`
      ),
    sort: (p) => p.evidence.creation_gap_days,
    numeric: true,
  },
  {
    key: 'detected',
    header: 'Detected',
    cell: (p) => <Time at={p.detected_at} />,
    sort: (p) => p.detected_at,
  },
];

const pairKey = (p: Pair) => `${p.original.universe_id}-${p.clone.universe_id}`;

function Method({ text }: { text: string }) {
  return (
    <details className="card">
      <summary>
        <h2 className="inline-heading">How clones are detected</h2>
      </summary>
      <p className="small">{text}</p>
    </details>
  );
}

function MoreButton({
  list,
  cap,
  testId,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  cap: number | undefined;
  testId: string;
}) {
  return (
    <p className="row">
      {list.hasNextPage ? (
        <button
          type="button"
          className="button"
          onClick={() => list.fetchNextPage()}
          disabled={list.isFetchingNextPage}
        >
          {list.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </button>
      ) : null}
      <span className="muted small" data-testid={testId}>
        Up to {formatInteger(cap)} per page on your plan.
      </span>
    </p>
  );
}

function RecentClones() {
  const [genre, setGenre] = useState('');
  const [days, setDays] = useState(30);
  const query = { days, limit: 50, ...(genre ? { genre } : {}) };
  const list = useInfiniteQuery({
    queryKey: ['clones', 'recent', query],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/intelligence/clones/recent', {
          params: { query: { ...query, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const first = list.data?.pages[0];
  const pairs = list.data?.pages.flatMap((p) => p.pairs) ?? [];
  return (
    <>
      <section className="card stack" aria-labelledby="clones-title">
        <h2 id="clones-title">Clones detected lately</h2>
        <fieldset className="row">
          <legend className="sr-only">Filters</legend>
          <label>
            Detected in the last{' '}
            <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
              <option value={7}>7 days</option>
              <option value={30}>30 days</option>
              <option value={90}>90 days</option>
              <option value={365}>365 days</option>
            </select>
          </label>
          <label>
            Genre{' '}
            <select value={genre} onChange={(e) => setGenre(e.target.value)}>
              <GenreOptions />
            </select>
          </label>
        </fieldset>
        {list.isPending ? (
          <Loading label="Loading clone pairs" />
        ) : list.isError ? (
          <ErrorState error={list.error} retry={() => list.refetch()} />
        ) : pairs.length === 0 ? (
          <Empty title="No clone detected in this window.">
            Pairs are detected as the collector sees new games or changed names and descriptions.
          </Empty>
        ) : (
          <>
            <DataTable
              testId="clones-table"
              caption="Clone pairs, newest detection first"
              rows={pairs}
              columns={columns}
              rowKey={pairKey}
            />
            <MoreButton list={list} cap={first?.limit_cap} testId="clones-plan-cap" />
          </>
        )}
      </section>
      {first ? <Method text={first.method} /> : null}
    </>
  );
}

function GameClones({ placeId }: { placeId: number }) {
  const list = useInfiniteQuery({
    queryKey: ['clones', 'game', placeId],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/intelligence/clones', {
          params: { query: { place_id: placeId, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  if (list.isPending) return <Loading label="Loading the game's clones" />;
  if (list.isError) return <ErrorState error={list.error} retry={() => list.refetch()} />;
  const first = list.data.pages[0]!;
  const pairs = list.data.pages.flatMap((p) => p.pairs);
  const g = first.game;
  return (
    <>
      <PageHeader title={`${g.name}: clones`} />
      <p className="muted page-intro">
        <Link to={`/games/${g.place_id}`}>Game detail</Link> · by {g.creator} · {g.genre.replace(/_/g, ' ')} ·{' '}
        <Link to="/intelligence/clones">Recent clones</Link>
      </p>
      <section className="card stack" aria-labelledby="game-clones-title">
        <h2 id="game-clones-title" data-testid="game-clones-total">
          {formatInteger(first.total)} clone {first.total === 1 ? 'pair' : 'pairs'}
        </h2>
        {pairs.length === 0 ? (
          <Empty title="No clone detected.">
            No game of its genre has a near-duplicate name or description.
          </Empty>
        ) : (
          <>
            <DataTable
              testId="game-clones-table"
              caption="Pairs the game is in, as original or clone, most similar first"
              rows={pairs}
              columns={columns}
              rowKey={pairKey}
            />
            <MoreButton list={list} cap={first.limit_cap} testId="game-clones-plan-cap" />
          </>
        )}
      </section>
      <Method text={first.method} />
    </>
  );
}

export function Component() {
  const me = useMe();
  const [params] = useSearchParams();
  const placeId = Number(params.get('place_id'));
  if (me.isPending) return <Loading label="Checking your session" />;
  if (!me.data) {
    return (
      <div className="page">
        <PageHeader title="Clones" />
        <SignInNotice title="Sign in to see which games copy which" next="/intelligence/clones" />
      </div>
    );
  }
  return (
    <div className="page">
      {Number.isSafeInteger(placeId) && placeId > 0 ? (
        <GameClones key={placeId} placeId={placeId} />
      ) : (
        <>
          <PageHeader title="Clones" />
          <p className="muted page-intro">
            Games of the same genre whose names or descriptions are near-duplicates, with the evidence: how
            alike the names and descriptions are, whether one creator made both, and how long after the
            original the clone was created.
          </p>
          <RecentClones />
        </>
      )}
    </div>
  );
}
