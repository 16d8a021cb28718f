/**
 * Segments: a team's named player sets, each a condition set on events (conditions.ts). A player
 * is in a segment over a range when ANY of their events in it satisfies the conditions (match all:
 * every condition on that one event; any: at least one). The analytics views use `players` (the
 * SegmentResolver) to narrow a view to a segment; `size` counts the last 30 days of every game.
 * Another team's segment answers 404, as if it did not exist.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { EVENT_TYPES } from '../ingest/index.js';
import type { SegmentResolver } from './analytics.service.js';
import { checkConditions } from './conditions.js';
import { addDays, dayOf } from './range.js';
import * as repo from './segments.repo.js';
import {
  type CreateSegmentBodyT,
  MAX_SEGMENTS_PER_TEAM,
  type SdkSegmentDetailT,
  type SdkSegmentsT,
  type SdkSegmentT,
  SIZE_WINDOW_DAYS,
} from './segments.schemas.js';

export interface SegmentsDeps {
  db: Db;
  clock: Clock;
}

const ALL_TYPES: readonly string[] = EVENT_TYPES;

function segment(row: repo.SegmentRow): SdkSegmentT {
  return {
    id: row.id,
    name: row.name,
    conditions: row.conditions,
    match: row.match,
    event_type: row.event_type as SdkSegmentT['event_type'],
    created_at: row.created_at.toISOString(),
  };
}

/** The events a segment can match between two UTC days, both included. */
function matchScope(row: repo.SegmentRow, teamId: number, from: string, to: string): repo.MatchScope {
  return {
    teamId,
    types: row.event_type ? [row.event_type] : ALL_TYPES,
    since: `${from}T00:00:00Z`,
    until: `${addDays(to, 1)}T00:00:00Z`,
  };
}

const notFound = () => errors.notFound('No such segment.');

export class SegmentsService implements SegmentResolver {
  constructor(private readonly deps: SegmentsDeps) {}

  async create(teamId: number, body: CreateSegmentBodyT): Promise<SdkSegmentT> {
    checkConditions(body.conditions, 'body.conditions');
    const row = await this.deps.db.transaction(async (tx) => {
      await repo.lockTeamSegments(tx, teamId);
      if ((await repo.countSegments(tx, teamId)) >= MAX_SEGMENTS_PER_TEAM) {
        throw errors.conflict(
          'limit_reached',
          `A team can keep at most ${MAX_SEGMENTS_PER_TEAM} segments; delete one to add another.`,
        );
      }
      return repo.insertSegment(tx, {
        teamId,
        name: body.name,
        conditions: body.conditions,
        match: body.match ?? 'all',
        eventType: body.event_type ?? null,
        createdAt: this.deps.clock.now(),
      });
    });
    return segment(row);
  }

  async list(teamId: number): Promise<SdkSegmentsT> {
    return { segments: (await repo.listSegments(this.deps.db, teamId)).map(segment) };
  }

  /** The segment with its size: players of any of the team's games matching in the last 30 days. */
  async get(teamId: number, id: number): Promise<SdkSegmentDetailT> {
    const row = await repo.findSegment(this.deps.db, teamId, id);
    if (!row) throw notFound();
    const to = dayOf(this.deps.clock.now());
    const from = addDays(to, -(SIZE_WINDOW_DAYS - 1));
    const size = await repo.segmentSize(this.deps.db, matchScope(row, teamId, from, to), row);
    return { ...segment(row), size, size_window: { from, to } };
  }

  async remove(teamId: number, id: number): Promise<void> {
    if (!(await repo.deleteSegment(this.deps.db, teamId, id))) throw notFound();
  }

  /** SegmentResolver: the players of one game (and platform) in the segment over [from, to];
   * null when the team has no such segment. */
  async players(
    teamId: number,
    segmentId: number,
    scope: { gameId: string; platform: string | null; from: string; to: string },
  ): Promise<string[] | null> {
    const row = await repo.findSegment(this.deps.db, teamId, segmentId);
    if (!row) return null;
    return repo.segmentPlayers(
      this.deps.db,
      { ...matchScope(row, teamId, scope.from, scope.to), gameId: scope.gameId, platform: scope.platform },
      row,
    );
  }
}
