/**
 * Intelligence: the feed of what happened to the games and creators you follow (GET
 * /api/intelligence/feed) and what you follow (…/follows), with links to the success patterns and
 * clone lists; a creator's page at /intelligence/creators/:creatorId (…/creators/{creator_id}).
 */

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, type Schemas, unwrap } from '../../api/client';
import { Chart } from '../../components/Chart';
import { type Column, DataTable } from '../../components/DataTable';
import { FOLLOWS_KEY, FollowButton, unfollowQuery, useFollows } from '../../components/FollowButton';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading, QueryView, SignInNotice } from '../../components/states';
import { Time } from '../../components/Time';
import { formatInteger, formatPercent } from '../../lib/format';
import { useMe } from '../../lib/session';
import { type CreatorPage, creatorHistory } from './creator-chart';

type FeedItem = Awaited<ReturnType<typeof loadFeed>>['items'][number];

const KIND_LABEL: Record<FeedItem['kind'], string> = {
  launch: 'Launch',
  update: 'Update',
  ccu_record: 'CCU record',
  top100_entry: 'Top 100',
  genre_top10_entry: 'Genre top 10',
  clone: 'Clone',
};

const creatorPath = (c: { id: number | null; type: 'User' | 'Group' }) =>
  c.id === null ? null : `/intelligence/creators/${c.id}?type=${c.type.toLowerCase()}`;

function loadFeed(cursor: string) {
  return unwrap(
    api.GET('/api/intelligence/feed', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }),
  );
}

function FeedList() {
  const feed = useInfiniteQuery({
    queryKey: ['intelligence', 'feed'],
    queryFn: ({ pageParam }) => loadFeed(pageParam),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  if (feed.isPending) return <Loading label="Reading your feed" />;
  if (feed.isError) return <ErrorState error={feed.error} retry={() => feed.refetch()} />;
  const items: FeedItem[] = feed.data.pages.flatMap((p) => p.items);
  if (items.length === 0) {
    return (
      <Empty title="Nothing in your feed yet.">
        Follow a game (on its page) or a creator (on their page); launches, updates, CCU records, rank entries
        and clones of games you track appear here as the collector sees them.
      </Empty>
    );
  }
  return (
    <>
      <ol className="feed" data-testid="feed">
        {items.map((i) => {
          const creator = creatorPath(i.game.creator);
          return (
            <li key={i.id} className={`feed-item feed-${i.kind}`}>
              <span className="feed-kind">{KIND_LABEL[i.kind]}</span>{' '}
              <span>
                <Link to={`/games/${i.game.place_id}`}>{i.game.name}</Link>: {i.message}
              </span>{' '}
              <span className="muted small">
                <Time at={i.detected_at} relative />
                {creator ? (
                  <>
                    {' '}
                    · <Link to={creator}>{i.game.creator.name}</Link>
                  </>
                ) : null}
                {i.details.original ? (
                  <>
                    {' '}
                    · copies{' '}
                    <Link to={`/games/${i.details.original.place_id}`}>{i.details.original.name}</Link>
                  </>
                ) : null}
              </span>
            </li>
          );
        })}
      </ol>
      {feed.hasNextPage ? (
        <p>
          <button
            type="button"
            className="button"
            onClick={() => feed.fetchNextPage()}
            disabled={feed.isFetchingNextPage}
          >
            {feed.isFetchingNextPage ? 'Loading…' : 'Show older'}
          </button>
        </p>
      ) : null}
      <details className="small">
        <summary>Where the items come from</summary>
        <p>{feed.data.pages[0]!.method}</p>
      </details>
    </>
  );
}

function FollowsList() {
  const client = useQueryClient();
  const follows = useFollows(true);
  const unfollow = useMutation({
    mutationFn: (f: Schemas['Follow']) =>
      unwrap(
        api.DELETE('/api/intelligence/follows', {
          params: {
            query: unfollowQuery(
              f.kind === 'game'
                ? { kind: 'game', place_id: f.place_id }
                : { kind: 'creator', creator_type: f.creator_type, creator_id: f.creator_id },
            ),
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: FOLLOWS_KEY });
      void client.invalidateQueries({ queryKey: ['intelligence', 'feed'] });
    },
  });
  return (
    <QueryView query={follows} label="Loading what you follow">
      {(f) =>
        f.follows.length === 0 ? (
          <p className="muted">You follow nothing yet (up to {formatInteger(f.limit)} on your plan).</p>
        ) : (
          <>
            <p className="muted small">
              {f.follows.length} of {formatInteger(f.limit)} on your plan.
            </p>
            <ul className="stack-tight" data-testid="follows">
              {f.follows.map((x) => (
                <li key={x.kind === 'game' ? `g${x.universe_id}` : `c${x.creator_type}${x.creator_id}`}>
                  {x.kind === 'game' ? (
                    <Link to={`/games/${x.place_id}`}>{x.name ?? `place ${x.place_id}`}</Link>
                  ) : (
                    <Link to={`/intelligence/creators/${x.creator_id}?type=${x.creator_type}`}>
                      {x.name ?? `${x.creator_type} ${x.creator_id}`}
                    </Link>
                  )}{' '}
                  <span className="muted small">({x.kind === 'game' ? 'game' : x.creator_type})</span>{' '}
                  <button
                    type="button"
                    className="button small"
                    onClick={() => unfollow.mutate(x)}
                    disabled={unfollow.isPending}
                  >
                    Unfollow
                  </button>
                </li>
              ))}
            </ul>
          </>
        )
      }
    </QueryView>
  );
}

type CreatorGame = CreatorPage['games'][number];
const gameColumns: Column<CreatorGame>[] = [
  {
    key: 'game',
    header: 'Game',
    cell: (g) => <Link to={`/games/${g.place_id}`}>{g.name}</Link>,
    sort: (g) => g.name.toLowerCase(),
  },
  { key: 'genre', header: 'Genre', cell: (g) => g.genre.replace(/_/g, ' '), sort: (g) => g.genre },
  { key: 'ccu', header: 'CCU', cell: (g) => formatInteger(g.ccu), sort: (g) => g.ccu, numeric: true },
  {
    key: 'share',
    header: 'Share of CCU',
    cell: (g) => formatPercent(g.share_of_ccu, { digits: 0 }),
    sort: (g) => g.share_of_ccu,
    numeric: true,
  },
  {
    key: 'visits',
    header: 'Visits',
    cell: (g) => formatInteger(g.visits),
    sort: (g) => g.visits,
    numeric: true,
  },
  {
    key: 'created',
    header: 'Created',
    cell: (g) => (g.created_at ? <Time at={g.created_at} /> : '–'),
    sort: (g) => g.created_at,
  },
];

function CreatorView({ id, type }: { id: number; type: 'user' | 'group' }) {
  const page = useInfiniteQuery({
    queryKey: ['intelligence', 'creator', type, id],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/intelligence/creators/{creator_id}', {
          params: {
            path: { creator_id: id },
            query: { type, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  if (page.isPending) return <Loading label="Loading the creator" />;
  if (page.isError) return <ErrorState error={page.error} retry={() => page.refetch()} />;
  const c = page.data.pages[0]!;
  const games = page.data.pages.flatMap((p) => p.games);
  return (
    <>
      <PageHeader title={c.creator.name}>
        <FollowButton
          target={{ kind: 'creator', creator_type: type, creator_id: id }}
          label={c.creator.name}
        />
      </PageHeader>
      <p className="muted page-intro">
        <Link to="/intelligence">Your feed</Link> · {type} {id} · {formatInteger(c.games_total)} games,{' '}
        {formatInteger(c.total_ccu)} playing now, {formatInteger(c.total_visits)} visits
      </p>
      <section className="card stack" aria-labelledby="creator-history">
        <h2 id="creator-history">Players, last {c.history.length} days</h2>
        {c.history.length > 0 ? (
          <Chart
            label={`Daily mean CCU of ${c.creator.name}'s games, in all and for the busiest`}
            option={creatorHistory(c)}
            testId="creator-chart"
          />
        ) : (
          <p className="muted">No daily readings in the window yet.</p>
        )}
      </section>
      <section className="card stack" aria-labelledby="creator-games">
        <h2 id="creator-games">Games</h2>
        <DataTable
          testId="creator-games-table"
          caption={`${c.creator.name}'s games, busiest first`}
          rows={games}
          columns={gameColumns}
          rowKey={(g) => g.universe_id}
        />
        {page.hasNextPage ? (
          <p>
            <button type="button" className="button" onClick={() => page.fetchNextPage()}>
              Show more games
            </button>
          </p>
        ) : null}
      </section>
      <section className="card stack" aria-labelledby="creator-activity">
        <h2 id="creator-activity">Launches and updates since {c.since}</h2>
        {c.launches.length === 0 && c.updates.length === 0 ? (
          <p className="muted">None in the window.</p>
        ) : (
          <ul className="stack-tight" data-testid="creator-activity">
            {c.launches.map((l) => (
              <li key={`l${l.place_id}`}>
                Launched <Link to={`/games/${l.place_id}`}>{l.name}</Link> (<Time at={l.created_at} />)
              </li>
            ))}
            {c.updates.map((u) => (
              <li key={`u${u.place_id}-${u.update.released_at}`}>
                Updated <Link to={`/updates/${u.place_id}`}>{u.name}</Link> (
                <Time at={u.update.released_at} />)
                {u.update.impact
                  ? `: ${u.update.impact.percent > 0 ? '+' : ''}${u.update.impact.percent}% CCU`
                  : ''}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function SignInPage() {
  return (
    <div className="page">
      <PageHeader title="Intelligence" />
      <SignInNotice title="Sign in to follow games and creators" next="/intelligence" />
    </div>
  );
}

export function Component() {
  const me = useMe();
  const { creatorId } = useParams();
  const [params] = useSearchParams();
  if (me.isPending) return <Loading label="Checking your session" />;
  if (!me.data) return <SignInPage />;
  if (creatorId !== undefined) {
    const id = Number(creatorId);
    if (!Number.isSafeInteger(id) || id < 1) {
      return (
        <div className="page">
          <ErrorState error={new Error(`“${creatorId}” is not a creator id.`)} />
        </div>
      );
    }
    return (
      <div className="page">
        <CreatorView id={id} type={params.get('type') === 'group' ? 'group' : 'user'} />
      </div>
    );
  }
  return (
    <div className="page">
      <PageHeader title="Intelligence" />
      <p className="muted page-intro">
        What happened to the games and creators you follow. Also:{' '}
        <Link to="/intelligence/patterns">success patterns</Link> ·{' '}
        <Link to="/intelligence/clones">clones</Link> · <Link to="/keywords">keywords</Link>
      </p>
      <div className="intel-split">
        <section className="card stack" aria-labelledby="feed-title">
          <h2 id="feed-title">Your feed</h2>
          <FeedList />
        </section>
        <section className="card stack" aria-labelledby="follows-title">
          <h2 id="follows-title">You follow</h2>
          <FollowsList />
        </section>
      </div>
    </div>
  );
}
