/**
 * Breakout radar: up to 50 young or small games gaining momentum (GET /api/breakout-radar, any
 * account), with how the score is made. Anonymous visitors get a sign-in prompt, not an error.
 */

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ApiError, api, type Schemas, unwrap } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { useGenreList } from '../../components/GenreSelect';
import { rankAndGameColumns } from '../../components/game-columns';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading } from '../../components/states';
import { Time } from '../../components/Time';
import { formatCompact, formatInteger, formatScore } from '../../lib/format';
import { useMe } from '../../lib/session';

type Breakout = Schemas['BreakoutGame'] & { rank: number; genreName: string };

function scoreClass(score: number): string {
  return score >= 90 ? 'good' : score < 50 ? 'muted' : '';
}

const columns: Column<Breakout>[] = [
  ...rankAndGameColumns<Breakout>(),
  { key: 'genre', header: 'Genre', cell: (g) => g.genreName, sort: (g) => g.genreName.toLowerCase() },
  {
    key: 'score',
    header: 'Breakout score',
    title: 'Percentile 0–100 among every collected game of 60% visit momentum and 40% engagement',
    cell: (g) => <strong className={scoreClass(g.score)}>{formatScore(g.score)}</strong>,
    sort: (g) => g.score,
    numeric: true,
  },
  { key: 'ccu', header: 'CCU', cell: (g) => formatCompact(g.ccu), sort: (g) => g.ccu, numeric: true },
  {
    key: 'visits',
    header: 'Visits',
    title: 'Total visits',
    cell: (g) => <span title={formatInteger(g.visits)}>{formatCompact(g.visits)}</span>,
    sort: (g) => g.visits,
    numeric: true,
  },
  {
    key: 'likes',
    header: 'Likes',
    cell: (g) => <span title={formatInteger(g.likes)}>{formatCompact(g.likes)}</span>,
    sort: (g) => g.likes,
    numeric: true,
  },
];

function HowScored() {
  return (
    <details className="card breakout-how">
      <summary>
        <h2 className="inline-heading">How the breakout score is made</h2>
      </summary>
      <div className="stack small">
        <p>
          <strong>Who is on the radar:</strong> games created in the last 180 days, or outside the top 1% by
          CCU — young or small games, not the platform’s giants. The 50 best by score are listed (ties by
          CCU).
        </p>
        <p>
          <strong>Visit momentum (60%):</strong> visits gained in the last 24 hours against the average day of
          the week before (plus one on both sides, so a handful of visits never reads as a surge). It is taken
          as a logarithm and its extremes are clipped at the 1st and 99th percentiles, so one viral game does
          not drown everyone else.
        </p>
        <p>
          <strong>Engagement (40%):</strong> like ratio (likes ÷ likes and dislikes) × ln(1 + CCU). A game
          without votes gets its genre’s median like ratio, so having no votes neither helps nor hurts.
        </p>
        <p>
          Both are turned into z-scores across every collected game and mixed 0.6 : 0.4. The score is that
          mix’s percentile among all collected games: <strong>90</strong> means it beats 90% of them.
          Recomputed every hour.
        </p>
      </div>
    </details>
  );
}

function SignInPrompt() {
  return (
    <div className="notice stack signin-prompt" data-testid="breakout-signin">
      <p className="state-title">Sign in to see the breakout radar</p>
      <p>
        Young and small games gaining players fastest, refreshed hourly. Any account can see it, the free one
        included.
      </p>
      <p className="row">
        <Link className="button primary" to="/signin?next=%2Fbreakout">
          Sign in
        </Link>
        <Link className="button" to="/register?next=%2Fbreakout">
          Create a free account
        </Link>
      </p>
    </div>
  );
}

function Radar() {
  const radar = useQuery({
    queryKey: ['breakout-radar'],
    queryFn: () => unwrap(api.GET('/api/breakout-radar')),
  });
  const genres = useGenreList();
  const names = useMemo(
    () => new Map((genres.data ?? []).map((g) => [g.name, g.display_name] as const)),
    [genres.data],
  );
  const rows = useMemo<Breakout[]>(
    () =>
      (radar.data?.games ?? []).map((g, i) => ({
        ...g,
        rank: i + 1,
        genreName: names.get(g.genre) ?? g.genre.replace(/_/g, ' '),
      })),
    [radar.data, names],
  );
  if (radar.isPending) return <Loading label="Scanning for breakouts" />;
  if (radar.error) {
    if (radar.error instanceof ApiError && radar.error.status === 401) return <SignInPrompt />;
    return <ErrorState error={radar.error} retry={() => void radar.refetch()} />;
  }
  if (rows.length === 0) {
    return (
      <Empty title="No game is breaking out right now.">
        The radar needs a day of visit history; it is recomputed every hour.
      </Empty>
    );
  }
  return (
    <section className="card stack" aria-labelledby="radar-title">
      <h2 id="radar-title">Games breaking out</h2>
      <DataTable
        testId="breakout-table"
        caption="Young or small games breaking out, by breakout score"
        rows={rows}
        columns={columns}
        rowKey={(g) => g.place_id}
      />
      <p className="muted small">
        {formatInteger(rows.length)} games · computed <Time at={radar.data.computed_at} relative />
      </p>
    </section>
  );
}

export function Component() {
  const me = useMe();
  return (
    <div className="page">
      <PageHeader title="Breakout radar" />
      <p className="muted page-intro">
        Young or small games whose visits are surging while players stay engaged.
      </p>
      {me.isPending ? <Loading label="Checking your session" /> : me.data ? <Radar /> : <SignInPrompt />}
      <HowScored />
    </div>
  );
}
