/**
 * Clone pairs: detected and stored as the market is collected (detect), and the two lists read
 * from them. Detection is the games domain's clone detector (findCloneEvidence), run once per game
 * that is new or whose genre, name or description changed.
 */
import { TtlCache } from '../cache.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { type CloneEvidence, findCloneEvidence, GenreClones } from '../games/index.js';
import { decodeCursor, pageOf } from '../http/pages.js';
import { type SerialisedBody, serialise } from '../http/serializers.js';
import { assertKnownGenre, findGameByPlaceId } from '../market/index.js';
import type { Entitlements, PlanName } from '../plans.js';
import { CLONES_METHOD, creationGapDays, orderPair, type PairGame, sameCreator } from './clone-pairs.js';
import * as repo from './clones.repo.js';
import type {
  ClonePairT,
  GameClonesQueryT,
  GameClonesResponseT,
  RecentClonesQueryT,
  RecentClonesResponseT,
} from './clones.schemas.js';

const DAY_MS = 86_400_000;
/** Bump when the detector's rules change: every game is checked again. */
export const CLONE_RULES_VERSION = 1;
/** Games checked per transaction (one at a time, through the indexed candidate search). */
const DETECT_BATCH = 250;
/**
 * From this many games waiting, a run compares them with every game of their genre in memory (a
 * genre at a time) instead of searching candidates game by game: a first run over a whole
 * catalogue takes seconds rather than minutes (the indexed search costs ~7 ms a game on PGlite).
 */
export const BULK_FROM = 500;
/** Games compared between two yields to the event loop in a whole-genre run. */
const YIELD_EVERY = 200;

export interface ClonesDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

export interface DetectOptions {
  signal?: AbortSignal;
  /** Stop after checking about this many games (whole batches); the rest wait for the next run. */
  maxGames?: number;
}

/** A cursor's detection time; a number no Date holds is not a cursor this endpoint gave out. */
function cursorTime(ms: number): Date {
  const at = new Date(ms);
  if (Number.isNaN(at.getTime())) {
    throw errors.validation(
      'query.cursor',
      'cursor is not one this endpoint gave out; start again without it.',
    );
  }
  return at;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toApi(r: repo.PairRow): ClonePairT {
  return {
    original: {
      place_id: r.o_place_id,
      universe_id: r.o_universe_id,
      name: r.o_name,
      creator: r.o_creator,
      genre: r.o_genre,
      ccu: r.o_ccu,
      created_at: iso(r.o_created_at),
    },
    clone: {
      place_id: r.c_place_id,
      universe_id: r.c_universe_id,
      name: r.c_name,
      creator: r.c_creator,
      genre: r.c_genre,
      ccu: r.c_ccu,
      created_at: iso(r.c_created_at),
    },
    evidence: {
      similarity: r.similarity,
      name_similarity: r.name_similarity,
      description_similarity: r.description_similarity,
      same_creator: r.same_creator,
      creation_gap_days: r.creation_gap_days,
    },
    detected_at: r.detected_at.toISOString(),
  };
}

/** Adds the pair of two look-alikes (the original first), once however often it is found. */
function addPair(
  pairs: Map<string, repo.PairUpsert>,
  a: PairGame & { genre: string },
  b: PairGame,
  evidence: CloneEvidence,
): void {
  const [original, clone] = orderPair(a, b);
  pairs.set(`${original.universe_id}|${clone.universe_id}`, {
    original: original.universe_id,
    clone: clone.universe_id,
    genre: a.genre,
    name: evidence.name,
    description: evidence.description,
    similarity: evidence.similarity,
    sameCreator: sameCreator(original, clone),
    gapDays: creationGapDays(original, clone),
  });
}

/** Pages of the recent list are served from memory this long. */
export const RECENT_PAGE_MS = 60_000;

export class ClonePairService {
  /** Serialised pages: a repeated read costs neither a query nor a stringify. */
  private readonly recentPages = new TtlCache<SerialisedBody>(RECENT_PAGE_MS, 1000);

  constructor(private readonly deps: ClonesDeps) {}

  /**
   * Looks for the clones of every game not yet checked (new, or its genre, name or description
   * changed) and stores the pairs found: game by game in batches when few wait, a genre at a time
   * when BULK_FROM or more do. Stops between batches (genres) when aborted or past `maxGames`.
   * Returns how many games were checked and how many pairs were new.
   */
  async detect(now: Date, options: DetectOptions = {}): Promise<{ checked: number; detected: number }> {
    const genres = await repo.uncheckedGenres(this.deps.db, CLONE_RULES_VERSION);
    const waiting = genres.reduce((n, g) => n + g.n, 0);
    if (waiting === 0) return { checked: 0, detected: 0 };
    const result = await (waiting >= BULK_FROM
      ? this.detectByGenre(
          now,
          genres.map((g) => g.genre),
          options,
        )
      : this.detectOneByOne(now, options));
    // This process's kept pages go at once; another process's within RECENT_PAGE_MS.
    this.recentPages.clear();
    return result;
  }

  /** Game by game: the candidates game detail searches (pg_trgm), scored by the same rule. */
  private async detectOneByOne(
    now: Date,
    options: DetectOptions,
  ): Promise<{ checked: number; detected: number }> {
    const { db } = this.deps;
    let checked = 0;
    let detected = 0;
    while (!options.signal?.aborted && (options.maxGames === undefined || checked < options.maxGames)) {
      const games = await repo.uncheckedGames(db, CLONE_RULES_VERSION, DETECT_BATCH);
      if (games.length === 0) break;
      const pairs = new Map<string, repo.PairUpsert>();
      for (const game of games) {
        if (options.signal?.aborted) break;
        const subject = { ...game, universeId: game.universe_id };
        for (const { candidate, evidence } of await findCloneEvidence(db, subject)) {
          addPair(pairs, game, candidate, evidence);
        }
      }
      // An aborted batch stores nothing: its games are checked again next run.
      if (options.signal?.aborted) break;
      detected += await this.store(games, pairs, now);
      checked += games.length;
      if (games.length < DETECT_BATCH) break;
    }
    return { checked, detected };
  }

  /** A genre at a time: every waiting game against every game of its genre (clonesWithin). */
  private async detectByGenre(
    now: Date,
    genres: string[],
    options: DetectOptions,
  ): Promise<{ checked: number; detected: number }> {
    let checked = 0;
    let detected = 0;
    for (const genre of genres) {
      if (options.signal?.aborted || (options.maxGames !== undefined && checked >= options.maxGames)) break;
      const games = (await repo.genreGames(this.deps.db, CLONE_RULES_VERSION, genre)).map((g) => ({
        ...g,
        universeId: g.universe_id,
      }));
      const pairs = new Map<string, repo.PairUpsert>();
      const subject = games.map((g) => !g.checked);
      const genreClones = new GenreClones(games, subject);
      for (let i = 0; i < games.length; i++) {
        if (!subject[i]) continue;
        for (const { a, b, evidence } of genreClones.pairsOf(i)) addPair(pairs, a, b, evidence);
        // Let requests in between slices: a genre of thousands of games takes seconds.
        if (i % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      if (options.signal?.aborted) break;
      const waiting = games.filter((g) => !g.checked);
      detected += await this.store(waiting, pairs, now);
      checked += waiting.length;
    }
    return { checked, detected };
  }

  private store(games: repo.SubjectRow[], pairs: Map<string, repo.PairUpsert>, now: Date): Promise<number> {
    const hashes = games.map((g) => ({ universeId: g.universe_id, textHash: g.text_hash }));
    return repo.storeChecks(this.deps.db, hashes, [...pairs.values()], now);
  }

  private cap(plan: PlanName, limit: number): { cap: number; limit: number } {
    const cap = this.deps.entitlements.plans[plan].intelligenceListMax;
    return { cap, limit: Math.min(limit, cap) };
  }

  /** GET /api/intelligence/clones?place_id=: the pairs a game is in. */
  async forGame(q: GameClonesQueryT, plan: PlanName): Promise<GameClonesResponseT> {
    const game = await findGameByPlaceId(this.deps.db, q.place_id);
    if (!game) throw errors.notFound(`The service does not collect a game with place id ${q.place_id}.`);
    const { cap, limit } = this.cap(plan, q.limit);
    const after = decodeCursor(q.cursor, 2);
    const [rows, total] = await Promise.all([
      repo.pairsOfGame(this.deps.db, {
        universeId: game.universe_id,
        after: after ? { similarity: after[0]!, id: after[1]! } : undefined,
        limit: limit + 1,
      }),
      repo.countPairsOfGame(this.deps.db, game.universe_id),
    ]);
    const { page, next_cursor } = pageOf(rows, limit, (r) => [r.similarity, r.id]);
    return {
      game: {
        place_id: game.place_id,
        universe_id: game.universe_id,
        name: game.name,
        creator: game.creator_name,
        genre: game.genre,
        ccu: game.ccu,
        created_at: iso(game.created_at),
      },
      total,
      pairs: page.map(toApi),
      next_cursor,
      limit_cap: cap,
      method: CLONES_METHOD,
    };
  }

  /**
   * GET /api/intelligence/clones/recent as serialised JSON: the newest detected pairs, a page kept
   * RECENT_PAGE_MS per process (pairs arrive with collections).
   */
  async recent(q: RecentClonesQueryT, plan: PlanName): Promise<SerialisedBody> {
    await assertKnownGenre(this.deps.db, q.genre);
    const { cap, limit } = this.cap(plan, q.limit);
    const after = decodeCursor(q.cursor, 2);
    const key = [q.genre ?? '', q.days, q.cursor ?? '', limit, cap].join('|');
    return this.recentPages.get(key, this.deps.clock.now().getTime(), async () =>
      serialise(await this.computeRecent(q, { cap, limit, after })),
    );
  }

  private async computeRecent(
    q: RecentClonesQueryT,
    { cap, limit, after }: { cap: number; limit: number; after: number[] | undefined },
  ): Promise<RecentClonesResponseT> {
    const since = new Date(this.deps.clock.now().getTime() - q.days * DAY_MS);
    const rows = await repo.recentPairs(this.deps.db, {
      genre: q.genre ?? null,
      since,
      after: after ? { at: cursorTime(after[0]!), id: after[1]! } : undefined,
      limit: limit + 1,
    });
    const { page, next_cursor } = pageOf(rows, limit, (r) => [r.detected_at.getTime(), r.id]);
    return {
      genre: q.genre ?? null,
      since: since.toISOString(),
      pairs: page.map(toApi),
      next_cursor,
      limit_cap: cap,
      method: CLONES_METHOD,
    };
  }

  /**
   * Pairs first detected after `since` in which any of `universeIds` is the original or the clone,
   * newest first, at most `limit` (the feed's "clones of your games appearing").
   */
  async newPairs(since: Date, universeIds: readonly number[], limit = 100): Promise<ClonePairT[]> {
    if (universeIds.length === 0) return [];
    return (await repo.pairsDetectedAfter(this.deps.db, since, universeIds, limit)).map(toApi);
  }
}
