/**
 * errors: the SDK's `error` events rolled up by severity × source × message prefix (the message
 * normalised as crash frames are, migration 0025 sdk_normalise_line, and cut to 80 characters), so
 * "timed out after 1200 ms" and "timed out after 950 ms" are one group. Per group: errors, players
 * affected (distinct over the range), first and last seen, errors per day (or week); fatal first.
 */
import { Type } from 'typebox';
import { OneOf } from '../../http/schemas.js';
import { viewResponse } from '../analytics.schemas.js';
import { bucketOf, eachDay } from '../range.js';
import { errorFigures, TOP_ERROR_GROUPS } from './errors.repo.js';
import type { View } from './view.js';

const SEVERITIES = ['fatal', 'error', 'warn'] as const;
const Severity = OneOf(SEVERITIES, { description: 'The payload’s severity.' });
const Instant = (description: string) => Type.String({ format: 'date-time', description });

export const ErrorsView = viewResponse(
  'SdkErrors',
  {
    errors: Type.Integer({ description: 'error events in the range.' }),
    groups_total: Type.Integer({
      description: `Distinct (severity, source, prefix) groups in the range (groups lists the first ${TOP_ERROR_GROUPS}).`,
    }),
    by_severity: Type.Array(
      Type.Object({
        severity: Severity,
        errors: Type.Integer({ description: 'Events of that severity in the range.' }),
        players_affected: Type.Integer({ description: 'Distinct players with one in the range.' }),
        groups: Type.Integer({ description: 'Distinct (source, prefix) groups of that severity.' }),
      }),
      { description: 'fatal, error, warn: always these 3, zeros where none.' },
    ),
    groups: Type.Array(
      Type.Object({
        severity: Severity,
        source: Type.Union([Type.String(), Type.Null()], {
          description: 'The payload’s source; null: not sent.',
        }),
        message_prefix: Type.String({
          description:
            'The message normalised (digit runs → <n>; 0x addresses, UUIDs and hex ids of 8+ digits → <hex>; file ' +
            'paths cut to the file name; runs of white space, newlines included, → one space; trimmed), first 80 characters.',
        }),
        errors: Type.Integer({ description: 'Events of the group in the range.' }),
        players_affected: Type.Integer({
          description: 'Distinct players with an event of the group in the range.',
        }),
        first_seen: Instant('The group’s earliest event in the range (ts, UTC).'),
        last_seen: Instant('The group’s latest event in the range (ts, UTC).'),
        sample_message: Type.String({
          description: 'The message of the group’s latest event in the range, as sent.',
        }),
        series: Type.Array(
          Type.Object({
            date: Type.String({ format: 'date', description: 'The day, or the Monday of the ISO week.' }),
            errors: Type.Integer({ description: 'Events of the group that day (or week).' }),
          }),
          { description: 'One point per day (or ISO week) of the range, 0 where none.' },
        ),
      }),
      {
        description: `The first ${TOP_ERROR_GROUPS} groups: fatal first, then error, then warn; within a severity most errors first (then most players, source, prefix).`,
      },
    ),
  },
  'Errors by severity × source × normalised message prefix: count, players affected, first/last seen, per day.',
);

export const errors: View<typeof ErrorsView> = {
  name: 'errors',
  schema: ErrorsView,
  summary: 'Errors by severity, source and message prefix: count, players affected, first/last seen, per day',
  async load(ctx) {
    const { groups, points, severities } = await errorFigures(ctx, TOP_ERROR_GROUPS);
    const dates = [
      ...new Set(eachDay(ctx.range.from, ctx.range.to).map((d) => bucketOf(d, ctx.granularity))),
    ];
    const counts = new Map(points.map((p) => [`${p.rank} ${p.date}`, p.count]));
    const bySeverity = new Map(severities.map((s) => [s.severity, s]));
    return {
      errors: severities.reduce((n, s) => n + s.count, 0),
      groups_total: severities.reduce((n, s) => n + s.groups, 0),
      by_severity: SEVERITIES.map((severity) => ({
        severity,
        errors: bySeverity.get(severity)?.count ?? 0,
        players_affected: bySeverity.get(severity)?.players ?? 0,
        groups: bySeverity.get(severity)?.groups ?? 0,
      })),
      groups: groups.map((g, rank) => ({
        severity: g.severity,
        source: g.source === '' ? null : g.source,
        message_prefix: g.prefix,
        errors: g.count,
        players_affected: g.players,
        first_seen: g.first_seen,
        last_seen: g.last_seen,
        sample_message: g.sample_message,
        series: dates.map((date) => ({ date, errors: counts.get(`${rank} ${date}`) ?? 0 })),
      })),
    };
  },
};
