import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendEvents } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { configError } from '../../test/helpers/config.js';
import { testEngines } from '../../test/helpers/db.js';
import { type IngestKey, ingestKey, postEvents, sdkEvent } from '../../test/helpers/ingest.js';
import { fixedClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { prepare } from './batch.js';
import { ageLimit, Partitions } from './partitions.js';
import { dropCutoff, parsePartitionName, partitionsToDrop, Retention } from './retention.js';
import { validateBatch } from './validate.js';

describe('retention settings', () => {
  it('keeps raw events 400 days and event ids 35 days by default', () => {
    const c = loadConfig({});
    expect([c.sdkEventRetentionDays, c.sdkDedupeHorizonDays]).toEqual([400, 35]);
    const set = loadConfig({ SDK_EVENT_RETENTION_DAYS: '90', SDK_DEDUPE_HORIZON_DAYS: '90' });
    expect([set.sdkEventRetentionDays, set.sdkDedupeHorizonDays]).toEqual([90, 90]);
  });

  it('refuses fewer than 35 days, or a dedupe horizon beyond the retention, naming the variable', () => {
    expect(configError({ SDK_EVENT_RETENTION_DAYS: '34' })).toBe(
      'SDK_EVENT_RETENTION_DAYS must be an integer from 35 to 36500 (got "34")',
    );
    expect(configError({ SDK_DEDUPE_HORIZON_DAYS: '7' })).toBe(
      'SDK_DEDUPE_HORIZON_DAYS must be an integer from 35 to 36500 (got "7")',
    );
    expect(configError({ SDK_EVENT_RETENTION_DAYS: 'a year' })).toBe(
      'SDK_EVENT_RETENTION_DAYS must be an integer from 35 to 36500 (got "a year")',
    );
    expect(configError({ SDK_EVENT_RETENTION_DAYS: '60', SDK_DEDUPE_HORIZON_DAYS: '61' })).toBe(
      'SDK_DEDUPE_HORIZON_DAYS must not exceed SDK_EVENT_RETENTION_DAYS (60) (got "61")',
    );
    // The default horizon (35) against a retention set to 35: allowed.
    expect(loadConfig({ SDK_EVENT_RETENTION_DAYS: '35' }).sdkDedupeHorizonDays).toBe(35);
  });
});

describe('which partitions retention drops', () => {
  it('reads only names exactly like events_pYYYYMM', () => {
    expect(parsePartitionName('events_p202501')).toEqual({ name: 'events_p202501', year: 2025, month: 1 });
    expect(parsePartitionName('events_p202612')).toEqual({ name: 'events_p202612', year: 2026, month: 12 });
    for (const name of [
      'events_p202513',
      'events_p202500',
      'events_p20251',
      'events_p2025011',
      'events_p000101',
      'events_default',
      'xevents_p202501',
      'events_p202501 ',
      'EVENTS_P202501',
    ]) {
      expect(parsePartitionName(name)).toBeNull();
    }
  });

  it('drops a month when all of it lies before the cutoff, never one that straddles it', () => {
    const names = ['events_p202511', 'events_p202509', 'events_p202510', 'events_default', 'events_p202412'];
    expect(partitionsToDrop(names, new Date('2025-11-01T00:00:00Z')).map((p) => p.name)).toEqual([
      'events_p202412',
      'events_p202509',
      'events_p202510',
    ]);
    expect(partitionsToDrop(names, new Date('2025-10-31T23:59:59.999Z')).map((p) => p.name)).toEqual([
      'events_p202412',
      'events_p202509',
    ]);
  });

  it('counts the cutoff from now, or from the oldest batch still in the outbox, less a day of grace', () => {
    const now = new Date('2026-11-24T04:00:00Z');
    // 2026-11-24 less 400 days is 2025-10-20; less the day of grace, 2025-10-19.
    expect(dropCutoff(now, 400, null).toISOString()).toBe('2025-10-19T04:00:00.000Z');
    expect(dropCutoff(now, 400, new Date('2026-11-24T05:00:00Z')).toISOString()).toBe(
      '2025-10-19T04:00:00.000Z',
    );
    // A batch accepted on 2026-11-20 may hold events of 2025-10-16: 401 days before it.
    expect(dropCutoff(now, 400, new Date('2026-11-20T00:00:00Z')).toISOString()).toBe(
      '2025-10-15T00:00:00.000Z',
    );
  });
});

describe('the accepted ts window', () => {
  const receivedAt = new Date('2026-11-24T04:00:00Z');
  const errorsAt = (ts: string, retentionDays: number) =>
    prepare(validateBatch([sdkEvent(1, { ts })]), receivedAt, ageLimit(retentionDays)).errors;

  it('is the retention when shorter than 2 years', () => {
    expect(errorsAt('2025-10-20T04:00:00.000Z', 400)).toEqual([]);
    expect(errorsAt('2025-10-20T03:59:59.999Z', 400)).toEqual([
      {
        index: 0,
        event_id: 'evt-00000001',
        field: 'ts',
        code: 'out_of_range',
        message: 'ts must be within the last 400 days and at most 1 day ahead of the time of receipt',
      },
    ]);
  });

  it('stays 2 years (732 days) when the retention is longer', () => {
    // 2026-11-24 less 732 days is 2024-11-22.
    expect(errorsAt('2024-11-22T04:00:00.000Z', 1000)).toEqual([]);
    expect(errorsAt('2024-11-22T03:59:59.999Z', 1000)).toEqual([
      {
        index: 0,
        event_id: 'evt-00000001',
        field: 'ts',
        code: 'out_of_range',
        message: 'ts must be within the last 2 years and at most 1 day ahead of the time of receipt',
      },
    ]);
  });
});

describe.each(testEngines())('sdk-retention on a database (%s)', (engine) => {
  const T0 = '2026-11-24T04:00:00Z';
  const clock = fixedClock(T0);
  let t: TestApp;
  let k: IngestKey;

  /** Posts one event as received at `receivedAt` (async, stored and rolled up). */
  async function receivedOn(receivedAt: string, n: number, ts: string): Promise<void> {
    clock.set(receivedAt);
    await sendEvents(t, k.key, [sdkEvent(n, { ts })]);
  }
  async function partitions(): Promise<string[]> {
    const r = await t.testDb.db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'events'::regclass ORDER BY 1`,
    );
    return r.rows.map((row) => row.name);
  }
  async function column(sql: string): Promise<string[]> {
    const r = await t.testDb.db.query<{ v: string }>(sql, [k.teamId]);
    return r.rows.map((row) => row.v);
  }
  const eventIds = () => column('SELECT event_id AS v FROM event_ids WHERE team_id = $1 ORDER BY 1');
  const storedIds = () => column('SELECT event_id AS v FROM events WHERE team_id = $1 ORDER BY 1');
  const playerDays = () =>
    column(
      `SELECT to_char(day, 'YYYY-MM-DD') || ' ' || events AS v FROM sdk_player_days
        WHERE team_id = $1 ORDER BY day`,
    );
  const send = (n: number, ts: string) =>
    postEvents(t.app, { api_key: k.key, events: [sdkEvent(n, { ts })] });

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock });
    clock.set('2025-08-01T00:00:00Z');
    k = await ingestKey(t);
    // Each receipt creates its month's partition and the next one.
    await receivedOn('2025-08-15T12:00:00Z', 1, '2025-08-15T10:00:00Z');
    await receivedOn('2025-10-05T12:00:00Z', 2, '2025-10-05T10:00:00Z');
    await receivedOn('2026-10-01T12:00:00Z', 3, '2026-10-01T10:00:00Z');
    // The dedupe horizon at T0 is 2026-10-20T04:00:00Z: one id received just before, one right at it.
    await receivedOn('2026-10-20T03:59:59Z', 4, '2026-10-20T03:00:00Z');
    await receivedOn('2026-10-20T04:00:00Z', 5, '2026-10-20T03:30:00Z');
    await receivedOn('2026-11-10T12:00:00Z', 6, '2026-11-10T10:00:00Z');
    // Not named like ours: retention leaves it alone whatever its age.
    await t.testDb.db.exec(
      `CREATE TABLE events_archive PARTITION OF events
         FOR VALUES FROM ('2001-01-01 00:00:00+00') TO ('2001-02-01 00:00:00+00')`,
    );
    clock.set(T0);
  });
  afterAll(() => t.close());

  it('dedupes a re-sent old event_id while it is within the horizon', async () => {
    const res = await send(3, '2026-10-01T10:00:00Z');
    expect(res.json()).toEqual({ accepted: 0, rejected: 0, deduped: 1, errors: [] });
  });

  it('drops exactly the months wholly before the cutoff and the event ids older than the horizon', async () => {
    expect(await partitions()).toEqual([
      'events_archive',
      'events_p202508',
      'events_p202509',
      'events_p202510',
      'events_p202511',
      'events_p202610',
      'events_p202611',
      'events_p202612',
    ]);
    // Cutoff 2025-10-19T04:00Z (400 days and a day of grace before T0): August and September 2025
    // lie wholly before it; October 2025 straddles it and is kept with its event of 2025-10-05.
    expect(await t.services.ingest.retention.run(clock.now())).toEqual({
      dropped: ['events_p202508', 'events_p202509'],
      prunedEventIds: 4,
    });
    expect(await partitions()).toEqual([
      'events_archive',
      'events_p202510',
      'events_p202511',
      'events_p202610',
      'events_p202611',
      'events_p202612',
    ]);
    expect(await storedIds()).toEqual([
      'evt-00000002',
      'evt-00000003',
      'evt-00000004',
      'evt-00000005',
      'evt-00000006',
    ]);
    expect(await eventIds()).toEqual(['evt-00000005', 'evt-00000006']);
    // A second run the same day finds nothing more to do.
    expect(await t.services.ingest.retention.run(clock.now())).toEqual({ dropped: [], prunedEventIds: 0 });
  });

  it('forgets old event ids in bounded batches until none is left, and stops when aborted', async () => {
    const db = t.testDb.db;
    await db.query(
      `INSERT INTO event_ids (team_id, event_id, received_at)
       SELECT 999, 'old-' || g, '2026-01-01T00:00:00Z' FROM generate_series(1, 5) AS g`,
    );
    const retention = (pruneBatch: number) =>
      new Retention({
        db,
        partitions: new Partitions(),
        eventRetentionDays: 400,
        dedupeHorizonDays: 35,
        pruneBatch,
      });
    const stopped = new AbortController();
    stopped.abort();
    expect(await retention(2).run(clock.now(), stopped.signal)).toEqual({ dropped: [], prunedEventIds: 0 });
    // 2 + 2 + 1: the last, short batch ends the pass.
    expect(await retention(2).run(clock.now())).toEqual({ dropped: [], prunedEventIds: 5 });
    const left = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM event_ids WHERE team_id = 999',
    );
    expect(left.rows[0]!.n).toBe(0);
  });

  it('keeps every rollup, including those of the dropped months', async () => {
    await t.services.analytics.service.rollups.run();
    expect(await playerDays()).toEqual([
      '2025-08-15 1',
      '2025-10-05 1',
      '2026-10-01 1',
      '2026-10-20 2',
      '2026-11-10 1',
    ]);
  });

  it('accepts a re-sent event_id again once the horizon forgot it, and still dedupes a newer one', async () => {
    const again = await send(3, '2026-10-01T10:00:00Z');
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ accepted: 1, rejected: 0, deduped: 0, errors: [] });
    expect((await send(6, '2026-11-10T10:00:00Z')).json()).toEqual({
      accepted: 0,
      rejected: 0,
      deduped: 1,
      errors: [],
    });
  });

  it('refuses an event older than the retention, so no dropped day is ever rebuilt from one late event', async () => {
    // T0 less 400 days: 2025-10-20T04:00:00Z.
    const inside = await send(20, '2025-10-20T04:00:00.000Z');
    expect(inside.json()).toEqual({ accepted: 1, rejected: 0, deduped: 0, errors: [] });
    const outside = await send(21, '2025-10-20T03:59:59.999Z');
    expect(outside.json()).toEqual({
      accepted: 0,
      rejected: 1,
      deduped: 0,
      errors: [
        {
          index: 0,
          event_id: 'evt-00000021',
          field: 'ts',
          code: 'out_of_range',
          message: 'ts must be within the last 400 days and at most 1 day ahead of the time of receipt',
        },
      ],
    });
  });

  it('forgets a dropped month in the partition cache, so the month is created again when needed', async () => {
    // Back in August 2025, its events are accepted again: the partition must be recreated. (A
    // fresh key: the first one's rate bucket does not expect time to run backwards.)
    clock.set('2025-08-20T12:00:00Z');
    t.app.ingest.service.mode = 'sync';
    try {
      const other = await ingestKey(t);
      const event = sdkEvent(30, { ts: '2025-08-20T10:00:00Z' });
      const res = await postEvents(t.app, { api_key: other.key, events: [event] });
      expect([res.statusCode, res.json().accepted]).toEqual([200, 1]);
      expect(await partitions()).toContain('events_p202508');
    } finally {
      t.app.ingest.service.mode = 'async';
      clock.set(T0);
    }
  });
});
