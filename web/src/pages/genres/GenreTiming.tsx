/**
 * Launch timing per theme (GET /api/genre-timing, any account): the calendar windows that lift each
 * genre, best first, with the reason, and the ranges to avoid. Anonymous visitors get a sign-in prompt.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ApiError, api, unwrap } from '../../api/client';
import { Empty, ErrorState, Loading } from '../../components/states';
import { Time } from '../../components/Time';
import { formatScore } from '../../lib/format';
import { formatPeriod, upliftWords } from './timing';

function SignInPrompt() {
  return (
    <div className="notice stack signin-prompt">
      <p className="genre-timing-prompt">
        Sign in to see when to launch in each genre: the holidays and school breaks that lift it, and the
        weeks to avoid. Any account can see it, the free one included.
      </p>
      <p className="row">
        <Link className="button primary" to="/signin?next=%2Fgenres">
          Sign in
        </Link>
        <Link className="button" to="/register?next=%2Fgenres">
          Create a free account
        </Link>
      </p>
    </div>
  );
}

function Timing() {
  const timing = useQuery({
    queryKey: ['genres', 'timing'],
    queryFn: () => unwrap(api.GET('/api/genre-timing')),
    staleTime: 10 * 60_000,
  });
  if (timing.isPending) return <Loading label="Reading the calendar" />;
  if (timing.error) {
    if (timing.error instanceof ApiError && timing.error.status === 401) return <SignInPrompt />;
    return <ErrorState error={timing.error} retry={() => void timing.refetch()} />;
  }
  const { recommendations, computed_at } = timing.data;
  if (recommendations.length === 0) return <Empty title="No genre has timing yet." />;
  return (
    <>
      <p className="muted small timing-note">
        Score 0–100 per window: 50 means no change in the genre’s CCU, about 75 is +15%, about 94 is +40%.
        Periods are the next occurrence, both days included (UTC). Updated <Time at={computed_at} relative />.
      </p>
      <ul className="timing-list">
        {recommendations.map((r, i) => {
          const best = r.best_windows[0];
          return (
            <li key={r.genre}>
              <details className="timing-theme" open={i === 0}>
                <summary>
                  <strong>{r.theme}</strong>
                  <span className="muted">
                    {best
                      ? ` — best: ${best.event}, ${formatPeriod(best.period)} (score ${formatScore(best.score)})`
                      : ' — no window lifts this genre'}
                  </span>
                </summary>
                <div className="timing-body">
                  {r.best_windows.length > 0 ? (
                    <ol className="timing-windows">
                      {r.best_windows.map((w) => (
                        <li key={`${w.event}-${w.period}`}>
                          <div className="timing-window-head">
                            <strong>{w.event}</strong>
                            <span>{formatPeriod(w.period)}</span>
                            <span className="badge" title="50 = no change in the genre’s CCU">
                              {formatScore(w.score)} · {upliftWords(w.score)}
                            </span>
                          </div>
                          <p className="muted small">{w.reason}</p>
                        </li>
                      ))}
                    </ol>
                  ) : (
                    <p className="muted">No calendar window lifts this genre’s CCU.</p>
                  )}
                  <p className="small">
                    <strong>Avoid:</strong>{' '}
                    {r.avoid.length > 0 ? (
                      <span className="bad">{r.avoid.map(formatPeriod).join('; ')}</span>
                    ) : (
                      <span className="muted">no window lowers this genre’s CCU.</span>
                    )}
                  </p>
                </div>
              </details>
            </li>
          );
        })}
      </ul>
    </>
  );
}

export function GenreTiming({ signedIn, checking }: { signedIn: boolean; checking: boolean }) {
  return (
    <section className="card stack" aria-labelledby="timing-title" data-testid="genre-timing">
      <h2 id="timing-title">Launch timing per theme</h2>
      {checking ? <Loading label="Checking your session" /> : signedIn ? <Timing /> : <SignInPrompt />}
    </section>
  );
}
