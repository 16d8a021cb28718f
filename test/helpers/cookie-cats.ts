/**
 * Real data: the Cookie Cats A/B test (90,189 real players of a mobile game, each with its variant,
 * gate_30 or gate_40, and whether it came back on day 1 and on day 7; no licence stated, so it stays
 * in ../shared/realdata and the tests that read it are skipped without it), turned into SDK events.
 * Each player becomes: a session_start on the cohort day carrying the variant as an EXTRA payload
 * field (`version`, for segments) and, a second later, the experiment exposure the SDK contract
 * defines (custom event experiment_exposure, experiment "cookie-cats-gate", variant = the version);
 * then one session_start on day 1 and on day 7 when the player came back then.
 *
 * The counts below were taken from the CSV with awk, independently of the code under test:
 *   gate_30: 44,700 players, 20,034 back on day 1, 8,502 on day 7
 *   gate_40: 45,489 players, 20,119 back on day 1, 8,279 on day 7
 */

export const COOKIE_CATS_FILE = 'events/cookie-cats_ab-test_per-user-d1-d7-retention__atlam0s.csv';
/** The cohort day every player starts on. */
export const COOKIE_CATS_COHORT = '2026-10-01';
export const COOKIE_CATS_GAME = 'cookie-cats';
export const COOKIE_CATS_EXPERIMENT = 'cookie-cats-gate';

export const COOKIE_CATS_COUNTS = {
  gate_30: { players: 44_700, d1: 20_034, d7: 8_502 },
  gate_40: { players: 45_489, d1: 20_119, d7: 8_279 },
};

const DAY = 86_400_000;

/** The data set's CSV text as events. */
export function cookieCatsEvents(csv: string): Record<string, unknown>[] {
  const lines = csv.trim().split('\n').slice(1);
  const out: Record<string, unknown>[] = [];
  const at = (day: number, user: string, ms = 0) =>
    new Date(
      Date.parse(`${COOKIE_CATS_COHORT}T00:00:00Z`) + day * DAY + (Number(user) % 80_000) * 1000 + ms,
    ).toISOString();
  for (const line of lines) {
    const [user, version, rounds, d1, d7] = line.split(',') as [string, string, string, string, string];
    const base = {
      platform: 'platform_2',
      game_id: COOKIE_CATS_GAME,
      player_id: `cc-${user}`,
      type: 'session_start',
    };
    out.push({
      ...base,
      event_id: `cc-${user}-d0`,
      ts: at(0, user),
      payload: { version, game_rounds: Number(rounds) },
    });
    out.push({
      ...base,
      type: 'custom',
      event_id: `cc-${user}-x0`,
      ts: at(0, user, 1000),
      payload: { name: 'experiment_exposure', experiment: COOKIE_CATS_EXPERIMENT, variant: version },
    });
    if (d1 === 'True') out.push({ ...base, event_id: `cc-${user}-d1`, ts: at(1, user), payload: {} });
    if (d7.trim() === 'True') out.push({ ...base, event_id: `cc-${user}-d7`, ts: at(7, user), payload: {} });
  }
  return out;
}
