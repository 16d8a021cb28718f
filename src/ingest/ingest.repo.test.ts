import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb, testEngines } from '../../test/helpers/db.js';
import { eventRow } from '../../test/helpers/ingest.js';
import {
  chargeQuotaAllStatement,
  type EventRow,
  eventsCopy,
  eventsCopyText,
  insertEvents,
  insertOutbox,
  moveOutbox,
  openBatch,
  outboxDepth,
  QUOTA_RACE_SQLSTATE,
} from './ingest.repo.js';
import { Partitions } from './partitions.js';

const row = (n: number, over: Partial<EventRow> = {}): EventRow =>
  eventRow(n, {
    team_id: 3,
    key_id: 9,
    sdk_version: 'lua/1.2.0',
    type: 'custom',
    payload: { name: 'n' },
    ...over,
  });

/** What a stored row reads back as, in the row's own shape. */
async function readBack(t: TestDb, teamId: number): Promise<EventRow[]> {
  const r = await t.db.query<EventRow & { received_at: Date; ts: Date }>(
    `SELECT team_id, key_id, sdk_version, received_at, event_id, ts, platform, game_id, player_id,
            session_id, type, payload, country, batch::int
       FROM events WHERE team_id = $1 ORDER BY event_id`,
    [teamId],
  );
  return r.rows.map((x) => ({ ...x, received_at: x.received_at.toISOString(), ts: x.ts.toISOString() }));
}

describe('COPY text of events', () => {
  it('escapes backslash, tab, newline and carriage return, writes null as \\N', () => {
    const text = eventsCopyText([
      row(1, { game_id: 'a\tb\nc\rd\\e', session_id: null, payload: { s: 'x\\y\n"z"' } }),
    ]);
    expect(text).toBe(
      '3\t9\tlua/1.2.0\t2026-11-23T10:00:00.000Z\tevt-00000001\t2026-11-23T09:00:00.000Z\tplatform_1\t' +
        'a\\tb\\nc\\rd\\\\e\tp\t\\N\tcustom\t{"s":"x\\\\\\\\y\\\\n\\\\"z\\\\""}\t\\N\t7\n',
    );
  });
});

describe('COPY text of events in pieces', () => {
  it('closes a piece after 32,768 characters, at a whole row, and the pieces make the text', () => {
    const rows = Array.from({ length: 500 }, (_, i) => row(i + 1, { payload: { pad: 'x'.repeat(250) } }));
    const pieces = eventsCopy(rows);
    const lines = pieces.map((p) => p.split('\n').length - 1);
    expect(lines.reduce((a, b) => a + b, 0)).toBe(500);
    expect(pieces.length).toBeGreaterThan(3);
    for (const p of pieces) {
      expect(p.endsWith('\n')).toBe(true);
      // One row is about 400 characters: a piece passes the mark by less than a row.
      expect(p.length).toBeLessThan(32_768 + 1_000);
    }
    for (const p of pieces.slice(0, -1)) expect(p.length).toBeGreaterThanOrEqual(32_768);
    expect(pieces.join('')).toBe(eventsCopyText(rows));
    expect(eventsCopy([])).toEqual([]);
  });
});

describe.each(testEngines())('insertEvents through COPY (%s)', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await migratedDb(engine);
    await new Partitions().ensure(t.db, ['2026-11-23T00:00:00Z']);
  });
  afterAll(() => t.dispose());

  it('stores awkward text and payloads exactly as given', async () => {
    const rows = [
      row(1, { game_id: 'tab\there', player_id: 'line\nbreak\r\n', session_id: '\\N', country: 'DE' }),
      row(2, {
        sdk_version: null,
        event_id: 'evt-\\.-00002',
        payload: { name: 'q', path: 'C:\\dir\\f', nl: 'a\nb' },
      }),
      row(3, { payload: { name: 'ü 🎮 \u2028 "quoted"', nested: { list: [1, 2.5, null, true, '\\'] } } }),
    ];
    await insertEvents(t.db, rows);
    expect(await readBack(t, 3)).toEqual([rows[0], rows[2], rows[1]]); // by event_id
  });

  it('stores a batch of many pieces whole, a multibyte payload across them too', async () => {
    const rows = Array.from({ length: 300 }, (_, i) =>
      row(i + 1, {
        team_id: 4,
        event_id: `big-${String(i).padStart(4, '0')}`,
        payload: { name: 'ü🎮'.repeat(60) },
      }),
    );
    expect(eventsCopy(rows).length).toBeGreaterThan(1);
    await insertEvents(t.db, rows);
    expect(await readBack(t, 4)).toEqual(rows);
  });

  it('stores any text the validator lets through unchanged (property)', async () => {
    // Well-formed Unicode without NUL: what validation admits.
    const text = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\u0000'));
    let team = 100;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(text, text, fc.dictionary(text, text)), { minLength: 1, maxLength: 5 }),
        async (cells) => {
          team += 1;
          const rows = cells.map(([game, player, extra], i) =>
            row(i, { team_id: team, game_id: game, player_id: player, payload: { name: 'n', ...extra } }),
          );
          await insertEvents(t.db, rows);
          expect(await readBack(t, team)).toEqual(rows);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('moves outbox batches into events exactly as COPY stores them, and a batch only once (property)', async () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\u0000'));
    const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    let team = 300;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(text, fc.option(text), fc.dictionary(text, fc.oneof(text, number, fc.boolean()))), {
          minLength: 1,
          maxLength: 5,
        }),
        async (cells) => {
          team += 1;
          const rows = cells.map(([game, session, extra], i) =>
            row(i, { team_id: team, game_id: game, session_id: session, payload: { name: 'n', ...extra } }),
          );
          const id = await insertOutbox(t.db, JSON.stringify(rows), rows.length, new Date());
          expect(await outboxDepth(t.db)).toBe(rows.length);
          const moved = await t.db.transaction((tx) => moveOutbox(tx, { ids: [id] }));
          expect(moved).toEqual({ batches: 1, events: rows.length });
          expect(await t.db.transaction((tx) => moveOutbox(tx, { ids: [id] }))).toEqual({
            batches: 0,
            events: 0,
          });
          // What JSON round-trips to (-0 becomes 0), as COPY of the same rows would store it.
          expect(await readBack(t, team)).toEqual(
            JSON.parse(JSON.stringify(rows)).sort((a: EventRow, b: EventRow) =>
              a.event_id < b.event_id ? -1 : 1,
            ),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('charges a whole batch that fits, and refuses one that does not with SVQ01, charging nothing', async () => {
    const charge = (team: number, n: number, quota: number) => {
      const st = chargeQuotaAllStatement(team, '2026-11-01', n, quota);
      return t.db.query(st.sql, st.params);
    };
    const monthUsage = async (team: number, month: string) =>
      (await openBatch(t.db, { teamId: team, eventIds: [], receivedAt: new Date(), month, players: [] }))
        .used;
    await expect(charge(500, 11, 10)).rejects.toMatchObject({ code: QUOTA_RACE_SQLSTATE });
    expect(await monthUsage(500, '2026-11-01')).toBe(0);
    await charge(500, 6, 10);
    await charge(500, 4, 10);
    expect(await monthUsage(500, '2026-11-01')).toBe(10);
    await expect(charge(500, 1, 10)).rejects.toMatchObject({ code: QUOTA_RACE_SQLSTATE });
    expect(await monthUsage(500, '2026-11-01')).toBe(10);
  });

  it('opens a batch in one statement: new ids, usage, cached countries, and the claim when any id is new', async () => {
    const at = new Date('2026-11-23T10:00:00Z');
    const open = (teamId: number, eventIds: string[], more: { players?: string[]; claim?: number } = {}) =>
      openBatch(t.db, { teamId, eventIds, receivedAt: at, month: '2026-11-01', players: [], ...more });
    await t.db.query(
      `INSERT INTO player_countries (team_id, player_id, country, updated_at) VALUES (600, 'p1', 'BR', $1), (600, 'p3', 'US', $1)`,
      [at],
    );
    await t.db.query(`INSERT INTO ingest_usage (team_id, month, used) VALUES (600, '2026-11-01', 42)`);
    const first = await open(600, ['a', 'b'], { players: ['p1', 'p2'], claim: 9_001 });
    expect(first).toEqual({ fresh: new Set(['a', 'b']), used: 42, countries: new Map([['p1', 'BR']]) });
    const again = await open(600, ['b', 'c'], { claim: 9_002 });
    expect(again).toEqual({ fresh: new Set(['c']), used: 42, countries: new Map() });
    // Nothing new: no claim.
    await open(600, ['a'], { claim: 9_003 });
    const claims = await t.db.query<{ id: string; state: string; events: number }>(
      'SELECT id::text, state, events FROM ingest_claims WHERE id BETWEEN 9001 AND 9003 ORDER BY id',
    );
    expect(claims.rows).toEqual([
      { id: '9001', state: 'queued', events: 2 },
      { id: '9002', state: 'queued', events: 1 },
    ]);
    // The plain insert that met 'b' was undone whole: each id is recorded once. Ids compare as
    // bytes: 'A' is not 'a', and another team's 'a' is its own.
    const other = await open(601, ['A', 'a']);
    expect(other.fresh).toEqual(new Set(['A', 'a']));
    expect(
      (
        await t.db.query(
          'SELECT team_id::int AS team, event_id FROM event_ids WHERE team_id IN (600, 601) ORDER BY 1, 2',
        )
      ).rows,
    ).toEqual([
      { team: 600, event_id: 'a' },
      { team: 600, event_id: 'b' },
      { team: 600, event_id: 'c' },
      { team: 601, event_id: 'A' },
      { team: 601, event_id: 'a' },
    ]);
  });
});
