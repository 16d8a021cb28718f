/**
 * Realistic SDK events for the web app's SDK pages (dashboards, screenshots, demos): two games over
 * `days` days, a Roblox game with brand activation and brand-lift surveys (game A) and a mobile
 * runner with ads and session ends (game B, half the players). Every SDK event type appears:
 * sessions, purchases, ads, levels, custom events (tutorial, shop, experiment exposures),
 * performance, crashes, errors, brand zones, equips, shares and surveys.
 *
 *   npm run sdk:demo -- [--base URL] [--email E] [--password P | --data-dir DIR] [--days N] [--players N] [--seed N]
 *
 * Defaults: http://localhost:8080, studio@demo.test, the password in ./data/demo-password, 28 days,
 * 320 players, seed 17. The CLI signs in with a bearer login, which ends the account's other sessions
 * (single active session). Event ids derive from the seed and the UTC day of `now`, so a re-run the
 * same day is deduplicated by the server instead of doubling the data.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { EventType } from '../src/ingest/index.js';

export interface SdkDemoEvent {
  event_id: string;
  ts: string;
  platform: string;
  game_id: string;
  player_id: string;
  session_id: string;
  type: EventType;
  payload: Record<string, unknown>;
}

export interface SdkDemoOptions {
  /** Days of history, today included (default 28). */
  days?: number;
  /** Players of game A (default 320); game B gets half. */
  players?: number;
  /** PRNG seed (default 17). */
  seed?: number;
  now: Date;
}

export interface SdkDemoTarget {
  /** The server's origin, e.g. http://localhost:8080. */
  base: string;
  /** Authenticate as the user: a bearer token, or cookie + x-csrf-token + origin. */
  headers: Record<string, string>;
}

export interface SdkDemoResult {
  /** The ingest key created for the events (scope sdk:ingest): its secret and id. */
  key: string;
  keyId: number;
  /** The games the events belong to (game_id). */
  games: string[];
  events: number;
  accepted: number;
  /** Events the server had already received (a re-run the same day). */
  deduped: number;
  /** The experiment, survey definition and segments this run created (those that existed are skipped). */
  created: string[];
}

export const SDK_DEMO_GAMES = ['4924922222', 'com.svc.runner'] as const;
const EXPERIMENT = 'shop_layout';
const SURVEY = 'sneaker_recall';
const DAY_MS = 86_400_000;
const BATCH = 500;

interface Rng {
  next(): number;
  pick<T>(xs: readonly T[]): T;
  weighted<T>(xs: readonly (readonly [T, number])[]): T;
  between(lo: number, hi: number): number;
  int(lo: number, hi: number): number;
}

function mulberry32(seed: number): Rng {
  let state = seed | 0;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const between = (lo: number, hi: number) => lo + next() * (hi - lo);
  return {
    next,
    between,
    int: (lo, hi) => Math.floor(between(lo, hi + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)]!,
    weighted(xs) {
      const total = xs.reduce((s, [, w]) => s + w, 0);
      let r = next() * total;
      for (const [x, w] of xs) {
        r -= w;
        if (r <= 0) return x;
      }
      return xs.at(-1)![0];
    },
  };
}

const COUNTRIES: [string, number][] = [
  ['US', 30],
  ['BR', 14],
  ['GB', 8],
  ['DE', 7],
  ['PH', 7],
  ['MX', 6],
  ['FR', 5],
  ['ID', 5],
  ['CA', 4],
  ['JP', 3],
  ['PL', 3],
  ['AU', 2],
];
type Device = { device: string; os: string; fps: [number, number]; mem: [number, number] };
const DEVICES: [Device, number][] = [
  [{ device: 'iPhone 15', os: 'iOS 17.5', fps: [52, 60], mem: [900, 1400] }, 14],
  [{ device: 'iPhone 11', os: 'iOS 16.7', fps: [38, 58], mem: [700, 1100] }, 10],
  [{ device: 'Galaxy S23', os: 'Android 14', fps: [48, 60], mem: [900, 1500] }, 9],
  [{ device: 'Galaxy A12', os: 'Android 12', fps: [18, 40], mem: [500, 900] }, 9],
  [{ device: 'Redmi Note 9', os: 'Android 11', fps: [14, 35], mem: [450, 850] }, 7],
  [{ device: 'Windows PC', os: 'Windows 11', fps: [55, 144], mem: [1200, 2600] }, 24],
  [{ device: 'MacBook Air', os: 'macOS 14', fps: [50, 90], mem: [1000, 2000] }, 8],
  [{ device: 'Xbox Series S', os: 'Xbox', fps: [55, 60], mem: [1400, 1800] }, 6],
  [{ device: 'iPad 9th gen', os: 'iPadOS 17', fps: [40, 60], mem: [800, 1300] }, 7],
  [{ device: 'Chromebook', os: 'ChromeOS', fps: [20, 45], mem: [600, 1000] }, 6],
];
type Sku = { sku: string; name: string; price: number; currency: string; source: string };
const SKUS: [Sku, number][] = [
  [{ sku: 'gp_vip', name: 'VIP Pass', price: 399, currency: 'ROBUX', source: 'gamepass' }, 3],
  [{ sku: 'gp_2x_speed', name: '2x Speed', price: 149, currency: 'ROBUX', source: 'gamepass' }, 4],
  [{ sku: 'dp_coins_500', name: '500 Coins', price: 49, currency: 'ROBUX', source: 'devproduct' }, 10],
  [{ sku: 'dp_coins_2500', name: '2,500 Coins', price: 199, currency: 'ROBUX', source: 'devproduct' }, 5],
  [{ sku: 'dp_revive', name: 'Revive', price: 25, currency: 'ROBUX', source: 'devproduct' }, 8],
  [{ sku: 'sub_premium', name: 'Premium monthly', price: 4.99, currency: 'USD', source: 'subscription' }, 1],
];
const CRASHES = [
  (n: number) =>
    `Script timeout: exhausted allowed execution time\nServerScriptService.Combat.HitDetection:${120 + n}: function resolveHit\nServerScriptService.Combat.HitDetection:88: function onSwing\nReplicatedStorage.Shared.Signal:42\nServerScriptService.Main:17`,
  (n: number) =>
    `attempt to index nil with 'Humanoid'\nPlayers.Player${n}.PlayerScripts.CameraController:${200 + (n % 7)}: function update\nPlayers.Player${n}.PlayerScripts.CameraController:77\nReplicatedStorage.Packages.Knit.KnitClient:311`,
  (n: number) =>
    `SIGSEGV at 0x${(0x7ff0a000 + n * 16).toString(16)}\nlibroblox.so RBX::Render::TextureManager::upload+${n % 300}\nlibroblox.so RBX::Render::FrameRenderer::draw\nlibroblox.so RBX::TaskScheduler::step`,
];
type ErrorKind = { severity: 'warn' | 'error' | 'fatal'; source: string; message: (n: number) => string };
const ERRORS: [ErrorKind, number][] = [
  [
    {
      severity: 'warn',
      source: 'DataStore',
      message: (n) => `DataStore request was added to queue (key Player_${n})`,
    },
    10,
  ],
  [
    {
      severity: 'warn',
      source: 'Sound',
      message: () => 'Failed to load sound rbxassetid://9120386436: asset is not approved',
    },
    4,
  ],
  [
    { severity: 'error', source: 'Inventory', message: (n) => `Inventory: item ${n} not found in catalog` },
    5,
  ],
  [
    {
      severity: 'error',
      source: 'HttpService',
      message: () => 'HTTP 429 (Too Many Requests) from leaderboard service',
    },
    3,
  ],
  [
    {
      severity: 'fatal',
      source: 'DataStore',
      message: () => 'DataStore save failed after 5 retries; player data not saved',
    },
    1,
  ],
];

interface Game {
  gameId: string;
  platform: string;
  players: number;
  sendsSessionEnd: boolean;
  ads: boolean;
  brand: boolean;
  tag: 'a' | 'b';
}

/** One call's state: nothing outlives sdkDemoEvents. */
interface Run {
  rng: Rng;
  now: number;
  today0: number;
  days: number;
  /** sd<YYYYMMDD>-<seed>: the same day and seed give the same ids (the server deduplicates). */
  idPrefix: string;
  counter: number;
  events: SdkDemoEvent[];
}

interface Player {
  id: string;
  country: string;
  dev: Device;
  payer: boolean;
  level: number;
  zoneVisited: boolean;
  surveyed: boolean;
  surveyCohort: 'exposed' | 'control';
  surveyDone: boolean;
}

type Push = (type: EventType, payload: Record<string, unknown>, advanceS?: number) => SdkDemoEvent;

function positiveInt(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${name} must be an integer from 1 to ${max}`);
  }
  return value;
}

/** The options with their defaults, checked (a RangeError names the bad one). */
function demoOptions(options: SdkDemoOptions): { days: number; players: number; seed: number; now: number } {
  const days = positiveInt('days', options.days ?? 28, 365);
  const players = positiveInt('players', options.players ?? 320, 100_000);
  const seed = options.seed ?? 17;
  if (!Number.isSafeInteger(seed)) throw new RangeError('seed must be an integer');
  const now = options.now.getTime();
  if (!Number.isFinite(now)) throw new RangeError('now must be a valid date');
  return { days, players, seed, now };
}

/** The demo's events, sorted by time: pure, the same for the same options (and UTC day of `now`). */
export function sdkDemoEvents(options: SdkDemoOptions): SdkDemoEvent[] {
  const { days, players, seed, now } = demoOptions(options);
  const runDay = options.now.toISOString().slice(0, 10).replace(/-/g, '');
  const run: Run = {
    rng: mulberry32(seed),
    now,
    today0: Math.floor(now / DAY_MS) * DAY_MS,
    days,
    idPrefix: `sd${runDay}-${(seed >>> 0).toString(36)}`,
    counter: 0,
    events: [],
  };
  const [gameA, gameB] = SDK_DEMO_GAMES;
  gameEvents(run, {
    gameId: gameA,
    platform: 'platform_1',
    players,
    sendsSessionEnd: false,
    ads: false,
    brand: true,
    tag: 'a',
  });
  const half = Math.max(1, Math.round(players / 2));
  gameEvents(run, {
    gameId: gameB,
    platform: 'platform_2',
    players: half,
    sendsSessionEnd: true,
    ads: true,
    brand: false,
    tag: 'b',
  });
  return run.events.sort((a, b) => a.ts.localeCompare(b.ts));
}

function gameEvents(run: Run, game: Game): void {
  const { rng } = run;
  for (let p = 0; p < game.players; p++) {
    const player: Player = {
      id: `${game.tag}_${(p * 2654435761).toString(36).slice(-8)}${p}`,
      country: rng.weighted(COUNTRIES),
      dev: rng.weighted(DEVICES),
      payer: false,
      level: 1,
      zoneVisited: false,
      surveyed: false,
      surveyCohort: 'control',
      surveyDone: false,
    };
    // Newer players are more common (a growing game).
    const firstDay = Math.floor(run.days * rng.next() ** 0.7);
    const ago0 = run.days - 1 - firstDay;
    player.payer = rng.next() < 0.12;
    player.surveyed = game.brand && rng.next() < 0.45;
    player.surveyCohort = rng.next() < 0.5 ? 'exposed' : 'control';
    for (let ago = ago0; ago >= 0; ago--) {
      const since = ago0 - ago;
      // Retention decays over the player's first weeks, with a long tail of regulars.
      const active = since === 0 || rng.next() < 0.42 * Math.exp(-since / 7) + 0.07;
      if (!active) continue;
      const sessions = rng.next() < 0.3 ? 2 : 1;
      for (let s = 0; s < sessions; s++) {
        sessionEvents(run, game, player, { ago, since, first: since === 0 && s === 0 });
      }
    }
  }
}

/** A session's start time on the day `ago` days back: within the day, never in the last 2 minutes. */
function sessionStart(run: Run, ago: number): number {
  const { rng, now } = run;
  const day0 = run.today0 - ago * DAY_MS;
  const latest = ago === 0 ? Math.max(1, (now - day0) / 3_600_000 - 1) : 23;
  let t = day0 + rng.between(0, latest) * 3_600_000;
  if (t > now - 120_000) t = now - rng.between(120_000, 3_600_000);
  if (t < day0) t = day0 + 60_000;
  return t;
}

function sessionEvents(
  run: Run,
  game: Game,
  player: Player,
  day: { ago: number; since: number; first: boolean },
) {
  const { rng } = run;
  let t = sessionStart(run, day.ago);
  const session = `ss${run.idPrefix.slice(2)}-${game.tag}-${run.counter.toString(36)}`;
  const push: Push = (type, payload, advanceS) => {
    t += (advanceS ?? rng.between(20, 200)) * 1000;
    if (t > run.now) t = run.now - 1000;
    const event: SdkDemoEvent = {
      event_id: `${run.idPrefix}-${game.tag}-${(run.counter++).toString(36)}`,
      ts: new Date(t).toISOString(),
      platform: game.platform,
      game_id: game.gameId,
      player_id: player.id,
      session_id: session,
      type,
      payload,
    };
    run.events.push(event);
    return event;
  };
  const { dev, country } = player;
  const start = push(
    'session_start',
    { device: dev.device, os: dev.os, country, membership: player.payer ? 'premium' : 'free' },
    0,
  );
  if (day.first) {
    push('custom', { name: 'tutorial_start', step_count: 5 });
    if (rng.next() < 0.78) push('custom', { name: 'tutorial_complete', seconds: rng.int(60, 300) });
  }
  if (day.ago <= 14 && game.tag === 'a') {
    push('custom', { name: 'experiment_exposure', experiment: EXPERIMENT, variant: variantOf(player.id) }, 5);
  }
  play(rng, player, push);
  spend(rng, game, player, push);
  faults(rng, player, push);
  if (game.brand) brandActivity(rng, player, push);
  if (player.surveyed && !player.surveyDone && day.since >= 1) survey(rng, player, push);
  if (game.sendsSessionEnd) {
    const end = push(
      'session_end',
      { duration_s: 0, reason: rng.pick(['quit', 'backgrounded', 'timeout']) },
      30,
    );
    end.payload.duration_s = Math.round((Date.parse(end.ts) - Date.parse(start.ts)) / 1000);
  }
}

/** Half the players see each variant (a stable hash of the player id). */
function variantOf(player: string): 'control' | 'big_buttons' {
  let h = 0;
  for (const c of player) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % 2 === 0 ? 'control' : 'big_buttons';
}

/** Level attempts (harder as the player climbs), a shop visit now and then, performance samples. */
function play(rng: Rng, player: Player, push: Push): void {
  const attempts = rng.int(1, 4);
  for (let a = 0; a < attempts; a++) {
    const difficulty = Math.min(0.85, 0.15 + player.level * 0.06);
    const result = rng.weighted<string>([
      ['win', 1 - difficulty],
      ['loss', difficulty * 0.75],
      ['quit', difficulty * 0.25],
    ]);
    push('level', { level: player.level, score: rng.int(100, 5000), result }, rng.between(60, 400));
    if (result === 'win') player.level++;
  }
  if (rng.next() < 0.35) push('custom', { name: 'shop_open', tab: rng.pick(['coins', 'passes', 'skins']) });
  const { dev } = player;
  const samples = rng.int(1, 3);
  for (let k = 0; k < samples; k++) {
    const fps = Math.round(rng.between(...dev.fps) * 10) / 10;
    push('performance', {
      fps_avg: fps,
      fps_p5: Math.round(fps * rng.between(0.55, 0.85) * 10) / 10,
      frame_time_ms_p95: Math.round((1000 / Math.max(fps * 0.7, 1)) * 10) / 10,
      memory_mb: Math.round(rng.between(...dev.mem)),
      device: dev.device,
      gpu: dev.device.includes('PC') ? 'NVIDIA GeForce RTX 3060' : 'integrated',
    });
  }
}

/** Purchases (payers buy far more often; game B rarely) and, where the game shows ads, impressions. */
function spend(rng: Rng, game: Game, player: Player, push: Push): void {
  const { country } = player;
  const buyChance = game.tag === 'b' ? 0.03 : player.payer ? 0.4 : 0.015;
  if (rng.next() < buyChance) {
    const sku = rng.weighted(SKUS);
    push('purchase', {
      sku: sku.sku,
      name: sku.name,
      price: sku.price,
      currency: sku.currency,
      quantity: sku.source === 'devproduct' && rng.next() < 0.2 ? 2 : 1,
      source: sku.source,
      country,
    });
  }
  if (!game.ads) return;
  const impressions = rng.int(0, 4);
  for (let k = 0; k < impressions; k++) {
    const format = rng.weighted<string>([
      ['rewarded', 5],
      ['interstitial', 3],
      ['banner', 2],
    ]);
    const ecpm =
      format === 'rewarded'
        ? rng.between(8, 18)
        : format === 'interstitial'
          ? rng.between(4, 10)
          : rng.between(0.3, 1.5);
    push('ad_impression', {
      format,
      network: rng.weighted<string>([
        ['admob', 5],
        ['applovin', 3],
        ['unity_ads', 2],
      ]),
      placement: rng.pick(['revive', 'double_coins', 'level_end', 'main_menu']),
      revenue_usd: Math.round((ecpm / 1000) * 1e6) / 1e6,
      ecpm: Math.round(ecpm * 100) / 100,
      country,
    });
  }
}

/** Crashes (slow devices crash four times as often) and logged errors. */
function faults(rng: Rng, player: Player, push: Push): void {
  const { dev } = player;
  if (rng.next() < (dev.fps[0] < 25 ? 0.06 : 0.015)) {
    const template = rng.pick(CRASHES);
    push('crash', {
      stack_trace: template(rng.int(1, 400)),
      build: rng.pick(['1.4.2', '1.4.3', '1.5.0']),
      os: dev.os,
    });
  }
  if (rng.next() < 0.12) {
    const e = rng.weighted(ERRORS);
    push('error', { severity: e.severity, source: e.source, message: e.message(rng.int(1, 9999)) });
  }
}

/** A visit to a brand zone, sometimes an equip of its item and a share of it. */
function brandActivity(rng: Rng, player: Player, push: Push): void {
  if (rng.next() >= 0.3) return;
  const { country } = player;
  const zone = rng.weighted<string>([
    ['sneaker_plaza', 3],
    ['soda_arena', 2],
  ]);
  player.zoneVisited = true;
  push('brand_zone_enter', { zone_id: zone, country });
  push('brand_zone_exit', {
    zone_id: zone,
    dwell_seconds: Math.round(rng.between(15, 420) * 10) / 10,
    country,
  });
  if (rng.next() < 0.45) {
    const item = rng.pick(['sneaker_red', 'sneaker_gold', 'soda_cap']);
    push('equip', { item_id: item, item_name: item.replace('_', ' '), country });
    if (rng.next() < 0.3)
      push('share', { share_platform: rng.pick(['tiktok', 'discord', 'youtube']), item_id: item, country });
  }
}

/** The brand-lift survey, once per surveyed player: exposed players answer favourably more often. */
function survey(rng: Rng, player: Player, push: Push): void {
  const cohort = player.zoneVisited ? 'exposed' : player.surveyCohort;
  push('brand_survey_shown', { survey_id: SURVEY, cohort, country: player.country });
  if (rng.next() < 0.8) {
    const favourable = cohort === 'exposed' ? 0.55 : 0.4;
    const answer =
      rng.next() < favourable ? rng.pick(['very_likely', 'likely']) : rng.pick(['neutral', 'unlikely']);
    // Half the SDKs send the favorable flag, half leave it to the server's reading of the answer.
    const withFlag = rng.next() < 0.5;
    push('brand_survey_response', {
      survey_id: SURVEY,
      answer,
      ...(withFlag ? { favorable: answer.endsWith('likely') && answer !== 'unlikely' } : {}),
    });
  }
  player.surveyDone = true;
}

// Seeding a server ----------------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/** The server's own words for a failed call: its `detail` (and `code`), else the raw body. */
function failure(method: string, path: string, answer: Answer): Error {
  const detail = field(answer.body, 'detail');
  const code = field(answer.body, 'code');
  const said =
    typeof detail === 'string'
      ? `${detail}${typeof code === 'string' ? ` (${code})` : ''}`
      : JSON.stringify(answer.body);
  return new Error(`${method} ${path} answered ${answer.status}: ${said}`);
}

async function call(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).catch((err: unknown) => {
    // fetch says only "fetch failed"; the cause says why (ECONNREFUSED, ENOTFOUND, …).
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new Error(`${method} ${base}${path} failed: ${cause}`);
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page): keep the text for the error message.
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** A call that must succeed (2xx); its body. */
async function must(target: SdkDemoTarget, method: string, path: string, body?: unknown): Promise<unknown> {
  const answer = await call(target.base, method, path, target.headers, body);
  if (answer.status < 200 || answer.status > 299) throw failure(method, path, answer);
  return answer.body;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface IngestCounts {
  accepted: number;
  deduped: number;
}

/** Posts one batch, waiting out rate limits; throws on any other failure or any rejected event. */
async function postBatch(
  base: string,
  apiKey: string,
  batch: readonly SdkDemoEvent[],
): Promise<IngestCounts> {
  const path = '/api/sdk/events';
  for (let attempt = 1; ; attempt++) {
    const answer = await call(
      base,
      'POST',
      path,
      { 'x-svc-sdk-version': 'sdk-demo/1.0' },
      { api_key: apiKey, events: batch },
    );
    if (answer.status === 429 && attempt < 10) {
      await sleep(1000 * Math.max(1, Number(answer.headers.get('retry-after') ?? 1)));
      continue;
    }
    if (answer.status !== 200 && answer.status !== 202) throw failure('POST', path, answer);
    const accepted = Number(field(answer.body, 'accepted'));
    const rejected = Number(field(answer.body, 'rejected'));
    const deduped = Number(field(answer.body, 'deduped'));
    if (rejected !== 0 || accepted + deduped !== batch.length) {
      const errors = field(answer.body, 'errors');
      const sample = Array.isArray(errors) ? errors.slice(0, 5) : [];
      throw new Error(
        `POST ${path} rejected ${rejected} of ${batch.length} events: ${JSON.stringify(sample)}`,
      );
    }
    return { accepted, deduped };
  }
}

/** Creates the exposure experiment unless the game has it. In async ingest mode the events may not
 * be stored yet (404: no SDK events for this game): waits for the writer, at most `waitMs`. */
async function ensureExperiment(target: SdkDemoTarget, now: Date, waitMs = 30_000): Promise<boolean> {
  const [game] = SDK_DEMO_GAMES;
  const listed = field(await must(target, 'GET', '/api/sdk/experiments'), 'experiments');
  const have = Array.isArray(listed) ? listed : [];
  if (have.some((x) => field(x, 'game_id') === game && field(x, 'key') === EXPERIMENT)) return false;
  const body = {
    game_id: game,
    key: EXPERIMENT,
    variants: [
      { key: 'control', weight: 1 },
      { key: 'big_buttons', weight: 1 },
    ],
    primary_metric: { metric: 'conversion' },
    secondary_metrics: [{ metric: 'd1_retention' }, { metric: 'custom', event_name: 'shop_open' }],
    minimum_detectable_effect: 0.05,
    start_day: new Date(now.getTime() - 14 * DAY_MS).toISOString().slice(0, 10),
  };
  const path = '/api/sdk/experiments';
  const deadline = Date.now() + waitMs;
  for (;;) {
    const answer = await call(target.base, 'POST', path, target.headers, body);
    if (answer.status === 201) return true;
    if (answer.status === 409 && field(answer.body, 'code') === 'experiment_exists') return false;
    if (answer.status !== 404 || Date.now() > deadline) throw failure('POST', path, answer);
    await sleep(250);
  }
}

/** Defines which answers of the brand-lift survey are favourable (half the demo's responses carry
 * no `favorable` flag: without a definition they would all count as unfavourable). */
async function ensureSurvey(target: SdkDemoTarget): Promise<boolean> {
  const path = `/api/sdk/surveys/${SURVEY}?game_id=${SDK_DEMO_GAMES[0]}`;
  const answer = await call(target.base, 'GET', path, target.headers);
  if (answer.status === 200) return false;
  if (answer.status !== 404) throw failure('GET', path, answer);
  await must(target, 'PUT', path, { favorable_answers: ['very_likely', 'likely'] });
  return true;
}

const SEGMENTS = [
  { name: 'Brazilian players', conditions: [{ field: 'country', op: 'eq', value: 'BR' }], match: 'all' },
  {
    name: 'Reached level 5',
    conditions: [{ field: 'payload.level', op: 'gte', value: 5 }],
    match: 'all',
    event_type: 'level',
  },
];

/** Creates the demo segments the team lacks (by name); the names created. */
async function ensureSegments(target: SdkDemoTarget): Promise<string[]> {
  const listed = field(await must(target, 'GET', '/api/sdk/segments'), 'segments');
  const have = new Set((Array.isArray(listed) ? listed : []).map((s) => field(s, 'name')));
  const created: string[] = [];
  for (const def of SEGMENTS) {
    if (have.has(def.name)) continue;
    await must(target, 'POST', '/api/sdk/segments', def);
    created.push(def.name);
  }
  return created;
}

/**
 * Seeds the signed-in user's team: an ingest key (scope sdk:ingest), the demo events in batches of
 * 500, the `shop_layout` experiment, the favourable answers of the brand-lift survey and two segments
 * (skipping those that exist). Throws with the
 * server's detail on any failed call or rejected event.
 */
export async function seedSdkDemo(target: SdkDemoTarget, options: SdkDemoOptions): Promise<SdkDemoResult> {
  const events = sdkDemoEvents(options);
  const day = options.now.toISOString().slice(0, 10);
  const key = await must(target, 'POST', '/api/keys', { name: `sdk demo ${day}`, scopes: ['sdk:ingest'] });
  const apiKey = field(key, 'key');
  const keyId = field(key, 'id');
  if (typeof apiKey !== 'string' || typeof keyId !== 'number')
    throw new Error('POST /api/keys answered no key');
  const totals: IngestCounts = { accepted: 0, deduped: 0 };
  for (let i = 0; i < events.length; i += BATCH) {
    const counts = await postBatch(target.base, apiKey, events.slice(i, i + BATCH));
    totals.accepted += counts.accepted;
    totals.deduped += counts.deduped;
  }
  const created: string[] = [];
  if (await ensureExperiment(target, options.now)) created.push(`experiment ${EXPERIMENT}`);
  if (await ensureSurvey(target)) created.push(`survey ${SURVEY}`);
  for (const name of await ensureSegments(target)) created.push(`segment ${name}`);
  return { key: apiKey, keyId, games: [...SDK_DEMO_GAMES], events: events.length, ...totals, created };
}

// CLI -----------------------------------------------------------------------------------------------

const USAGE =
  'usage: npm run sdk:demo -- [--base URL] [--email E] [--password P | --data-dir DIR] [--days N] [--players N] [--seed N]';

function intOption(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n))
    throw new Error(`--${name} must be an integer\n${USAGE}`);
  return n;
}

function demoPassword(dataDir: string): string {
  const file = join(dataDir, 'demo-password');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    throw new Error(`no password: ${file} is not readable; pass --password or --data-dir\n${USAGE}`);
  }
}

async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      base: { type: 'string', default: 'http://localhost:8080' },
      email: { type: 'string', default: 'studio@demo.test' },
      password: { type: 'string' },
      'data-dir': { type: 'string', default: './data' },
      days: { type: 'string' },
      players: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const base = values.base.replace(/\/+$/, '');
  const options: SdkDemoOptions = {
    days: intOption('days', values.days, 28),
    players: intOption('players', values.players, 320),
    seed: intOption('seed', values.seed, 17),
    now: new Date(),
  };
  demoOptions(options); // before signing in, which ends the account's other sessions
  const password = values.password ?? demoPassword(values['data-dir']);
  // Without an Origin header the login answers the tokens as JSON (a bearer session).
  const login = await call(base, 'POST', '/api/auth/login', {}, { email: values.email, password });
  const token = field(login.body, 'access_token');
  if (login.status !== 200 || typeof token !== 'string') throw failure('POST', '/api/auth/login', login);
  const r = await seedSdkDemo({ base, headers: { authorization: `Bearer ${token}` } }, options);
  console.log(summary(values.email, base, options, r));
}

function summary(email: string, base: string, options: SdkDemoOptions, r: SdkDemoResult): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const players = options.players ?? 320;
  const again = r.deduped > 0 ? `, ${n(r.deduped)} already there (sent earlier today)` : '';
  const created =
    r.created.length > 0
      ? `Created ${r.created.join(', ')}.`
      : 'The experiment, survey definition and segments existed already.';
  return (
    `Seeded ${email}'s team at ${base} with ${n(r.events)} SDK events over ${options.days} days ` +
    `(${players} + ${Math.max(1, Math.round(players / 2))} players, seed ${options.seed}) for games ` +
    `${r.games.join(' and ')}: ${n(r.accepted)} accepted${again}. ${created} ` +
    `Ingest key #${r.keyId} (sdk:ingest): ${r.key}. Signing in ended ${email}'s other sessions. ` +
    `Open ${base}/sdk for the dashboards.`
  );
}

function isEntryPoint(): boolean {
  const invoked = process.argv[1];
  if (!invoked) return false;
  try {
    return realpathSync(invoked) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(`sdk:demo failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
