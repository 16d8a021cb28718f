/**
 * crashes: crash groups and crash-free shares. A crash's group is the client's `signature` when it
 * sent a non-empty one, else the md5 of the first 5 frames of its stack_trace once normalised
 * (migration 0025, sdk_crash_frames: line and column numbers, addresses, hex ids, numbers in
 * identifiers, directories of file paths and blank lines taken out), so two traces that differ only
 * there group together. Per group: crashes, players affected, first and last seen, builds and OSes,
 * the latest trace and its frames. Per day (or week) and over the range: crash-free sessions and
 * crash-free players, in percent.
 */
import { Type } from 'typebox';
import { viewResponse } from '../analytics.schemas.js';
import { addDays, bucketOf, type DayRange, eachDay } from '../range.js';
import { playersPerSpan, rangePlayers } from './activity.repo.js';
import {
  crashedPerPoint,
  crashGroups,
  crashTotals,
  sessionsPerPoint,
  TOP_CRASH_GROUPS,
} from './crashes.repo.js';
import { roundOrNull } from './figures.js';
import { moneyPoints } from './monetization.repo.js';
import type { View, ViewContext } from './view.js';

const Pct = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const Instant = (description: string) => Type.String({ format: 'date-time', description });

const shareFields = {
  sessions: Type.Integer({
    description:
      'Distinct sessions (platform, player, session_id) with events in the period; a session over midnight counts on both days, once per week.',
  }),
  crashed_sessions: Type.Integer({
    description:
      'Of those, the sessions with a crash in the period (crashes without a session_id are in none).',
  }),
  crash_free_sessions_pct: Pct(
    '100 × (1 − crashed_sessions / sessions), percent, 2 decimals; null without sessions.',
  ),
  players: Type.Integer({ description: 'Distinct players active in the period.' }),
  crashed_players: Type.Integer({ description: 'Of those, the players with a crash in the period.' }),
  crash_free_players_pct: Pct(
    '100 × (1 − crashed_players / players), percent, 2 decimals; null without players.',
  ),
};

export const CrashesView = viewResponse(
  'SdkCrashes',
  {
    crashes: Type.Integer({ description: 'crash events in the range.' }),
    groups_total: Type.Integer({
      description: 'Distinct crash groups in the range (groups lists the first 50).',
    }),
    ...shareFields,
    crash_free: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date', description: 'The day, or the Monday of the ISO week.' }),
        ...shareFields,
      }),
      {
        description:
          'One point per day (or ISO week, Monday’s date) of the range: its sessions and players, distinct within the point.',
      },
    ),
    groups: Type.Array(
      Type.Object({
        group_key: Type.String({
          description:
            'The client’s signature (key_source signature), or the md5 (hex) of the normalised frames joined by newlines.',
        }),
        key_source: Type.Union([Type.Literal('signature'), Type.Literal('frames')], {
          description:
            'signature: the crash sent a non-empty signature and is grouped by it; frames: grouped by the hash of its ' +
            'first 5 non-blank lines after normalising (line and column numbers and other digit runs → <n>; 0x addresses, ' +
            'UUIDs and hex ids of 8+ digits → <hex>; file paths cut to the file name; runs of white space → one space).',
        }),
        crashes: Type.Integer({ description: 'crash events of the group in the range.' }),
        players_affected: Type.Integer({
          description: 'Distinct players with a crash of the group in the range.',
        }),
        first_seen: Instant('The group’s earliest crash in the range (event ts, UTC).'),
        last_seen: Instant('The group’s latest crash in the range (event ts, UTC).'),
        builds: Type.Array(Type.String(), {
          description: 'The builds its crashes sent, sorted; those without one left out.',
        }),
        oses: Type.Array(Type.String(), {
          description: 'The OSes its crashes sent, sorted; those without one left out.',
        }),
        sample_trace: Type.String({
          description: 'The stack_trace of its latest crash in the range, as sent.',
        }),
        frames: Type.Array(Type.String(), {
          description:
            'The normalised frames of sample_trace (at most 5): for a frames group, what was hashed.',
        }),
      }),
      { description: `The ${TOP_CRASH_GROUPS} groups with the most crashes (then most players, then key).` },
    ),
  },
  'Crash groups (signature or normalised frames), crash-free sessions and players per day.',
);

/** 100 × (1 − part / whole), 2 decimals; null over nothing. */
export function crashFreePct(part: number, whole: number): number | null {
  return whole > 0 ? roundOrNull(100 * (1 - part / whole)) : null;
}

function shares(sessions: number, crashedSessions: number, players: number, crashedPlayers: number) {
  return {
    sessions,
    crashed_sessions: crashedSessions,
    crash_free_sessions_pct: crashFreePct(crashedSessions, sessions),
    players,
    crashed_players: crashedPlayers,
    crash_free_players_pct: crashFreePct(crashedPlayers, players),
  };
}

/** The series points of the range: its days, or its ISO weeks with their days inside the range. */
function points(range: DayRange, granularity: 'day' | 'week'): (readonly [string, string, string])[] {
  const dates = [...new Set(eachDay(range.from, range.to).map((d) => bucketOf(d, granularity)))];
  return dates.map((date) => {
    // ISO dates sort as strings: a point's span is its days inside the range.
    const [, start] = [date, range.from].sort();
    const [end] = [granularity === 'week' ? addDays(date, 6) : date, range.to].sort();
    return [date, start!, end!] as const;
  });
}

/** Distinct players per point: the stored daily actives per day, the activity bits per week. */
async function playersPer(ctx: ViewContext, spans: readonly (readonly [string, string, string])[]) {
  if (ctx.granularity === 'day') {
    return new Map((await moneyPoints(ctx)).map((p) => [p.date, p.player_days]));
  }
  const counts = await playersPerSpan(
    ctx,
    spans.map(([, a, b]) => [a, b] as const),
  );
  return new Map(spans.map(([date], i) => [date, counts[i]!]));
}

export const crashes: View<typeof CrashesView> = {
  name: 'crashes',
  schema: CrashesView,
  summary: 'Crash groups by signature or normalised frames; crash-free sessions and players per day',
  async load(ctx) {
    const spans = points(ctx.range, ctx.granularity);
    const [groups, totals, crashed, sessions, players, range] = await Promise.all([
      crashGroups(ctx, TOP_CRASH_GROUPS),
      crashTotals(ctx),
      crashedPerPoint(ctx),
      sessionsPerPoint(ctx),
      playersPer(ctx, spans),
      rangePlayers(ctx),
    ]);
    const crashedAt = new Map(crashed.map((c) => [c.date, c]));
    const sessionsAt = new Map(sessions.map((s) => [s.date, s.sessions]));
    return {
      crashes: totals.crashes,
      groups_total: totals.groups,
      ...shares(sessionsAt.get(null) ?? 0, totals.sessions, range.players, totals.players),
      crash_free: spans.map(([date]) => ({
        date,
        ...shares(
          sessionsAt.get(date) ?? 0,
          crashedAt.get(date)?.sessions ?? 0,
          players.get(date) ?? 0,
          crashedAt.get(date)?.players ?? 0,
        ),
      })),
      groups: groups.map((g) => ({
        group_key: g.group_key,
        key_source: g.key_source,
        crashes: g.crashes,
        players_affected: g.players,
        first_seen: g.first_seen,
        last_seen: g.last_seen,
        builds: g.builds,
        oses: g.oses,
        sample_trace: g.sample_trace,
        frames: g.frames,
      })),
    };
  },
};
