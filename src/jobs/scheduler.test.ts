import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb, testEngines } from '../../test/helpers/db.js';
import { fixedClock } from '../clock.js';
import { jobStates } from './jobs.repo.js';
import { type Job, Scheduler } from './scheduler.js';

const silent = { info() {}, warn() {}, error() {} };
const MIN = 60_000;

function countingJob(name: string, intervalMs: number, body: () => Promise<void> = async () => {}) {
  const runs: Date[] = [];
  const job: Job = {
    name,
    intervalMs,
    async run(now) {
      runs.push(now);
      await body();
    },
  };
  return { job, runs };
}

describe.each(testEngines())('scheduler on %s', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await migratedDb(engine);
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('runs a job when due, not again within its interval, and again after it', async () => {
    const clock = fixedClock('2026-05-01T00:00:00Z');
    const { job, runs } = countingJob('every-5-min', 5 * MIN);
    const s = new Scheduler({ db: t.db, clock, log: silent, owner: 'a' }).add(job);
    expect(await s.tick()).toEqual(['every-5-min']);
    await s.idle();
    clock.advance(4 * MIN);
    expect(await s.tick()).toEqual([]);
    clock.advance(MIN);
    expect(await s.tick()).toEqual(['every-5-min']);
    await s.idle();
    expect(runs).toEqual([new Date('2026-05-01T00:00:00Z'), new Date('2026-05-01T00:05:00Z')]);
    const state = (await jobStates(t.db)).find((r) => r.name === 'every-5-min');
    expect(state).toMatchObject({
      runs: 2,
      failures: 0,
      last_status: 'ok',
      lease_owner: null,
      last_error: null,
    });
  });

  it('honours the pause a run asks for, in every process, and forgets it after the next run', async () => {
    const clock = fixedClock('2026-05-01T00:30:00Z');
    const pauses = [7 * MIN, 0];
    const runs: Date[] = [];
    const job: Job = {
      name: 'pausing',
      intervalMs: MIN,
      async run(now) {
        runs.push(now);
        return { pauseMs: pauses.shift() };
      },
    };
    const s = new Scheduler({ db: t.db, clock, log: silent, owner: 'a' }).add(job);
    expect(await s.tick()).toEqual(['pausing']);
    await s.idle();
    const paused = (await jobStates(t.db)).find((r) => r.name === 'pausing');
    expect(paused?.not_before).toEqual(new Date('2026-05-01T00:37:00Z'));
    clock.advance(2 * MIN); // past the interval, inside the pause
    expect(await s.tick()).toEqual([]);
    const other = new Scheduler({ db: t.db, clock, log: silent, owner: 'b' }).add({ ...job });
    expect(await other.tick()).toEqual([]);
    clock.advance(5 * MIN); // 00:37: the pause is over
    expect(await other.tick()).toEqual(['pausing']);
    await other.idle();
    clock.advance(MIN); // that run asked for no pause: its interval alone
    expect(await s.tick()).toEqual(['pausing']);
    await s.idle();
    expect(runs).toEqual([
      new Date('2026-05-01T00:30:00Z'),
      new Date('2026-05-01T00:37:00Z'),
      new Date('2026-05-01T00:38:00Z'),
    ]);
    expect((await jobStates(t.db)).find((r) => r.name === 'pausing')?.not_before).toBeNull();
  });

  it('never overlaps runs across two processes, and a restarted process resumes the schedule', async () => {
    const clock = fixedClock('2026-05-01T01:00:00Z');
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const a = countingJob('shared', 5 * MIN, () => gate);
    const b = countingJob('shared', 5 * MIN);
    const first = new Scheduler({ db: t.db, clock, log: silent, owner: 'first' }).add(a.job);
    const second = new Scheduler({ db: t.db, clock, log: silent, owner: 'second' }).add(b.job);
    expect(await first.tick()).toEqual(['shared']);
    clock.advance(10 * MIN); // due again, but the first run still holds its lease
    expect(await second.tick()).toEqual([]);
    release();
    await first.idle();
    expect(await second.tick()).toEqual(['shared']);
    await second.idle();
    // A "restarted" process (new scheduler) knows the last run and waits for the interval.
    const restarted = new Scheduler({ db: t.db, clock, log: silent, owner: 'restarted' }).add(
      countingJob('shared', 5 * MIN).job,
    );
    expect(await restarted.tick()).toEqual([]);
    expect(a.runs.length + b.runs.length).toBe(2);
  });

  it('lets another process take over when a run outlives its lease (a crashed worker)', async () => {
    const clock = fixedClock('2026-05-01T02:00:00Z');
    const stuck = countingJob('crashy', MIN, () => new Promise<void>(() => {}));
    const crashed = new Scheduler({ db: t.db, clock, log: silent, owner: 'crashed' }).add({
      ...stuck.job,
      leaseMs: 2 * MIN,
    });
    expect(await crashed.tick()).toEqual(['crashy']);
    const other = countingJob('crashy', MIN);
    const survivor = new Scheduler({ db: t.db, clock, log: silent, owner: 'survivor' }).add(other.job);
    clock.advance(MIN + 1000);
    expect(await survivor.tick()).toEqual([]);
    clock.advance(MIN);
    expect(await survivor.tick()).toEqual(['crashy']);
    await survivor.idle();
    expect(other.runs).toHaveLength(1);
  });

  it('records a failing run and keeps scheduling it', async () => {
    const clock = fixedClock('2026-05-01T03:00:00Z');
    const { job } = countingJob('failing', MIN, async () => {
      throw new Error('source unavailable');
    });
    const s = new Scheduler({ db: t.db, clock, log: silent, owner: 'f' }).add(job);
    await s.tick();
    await s.idle();
    const state = (await jobStates(t.db)).find((r) => r.name === 'failing');
    expect(state).toMatchObject({
      last_status: 'failed',
      last_error: 'source unavailable',
      failures: 1,
      lease_owner: null,
    });
    clock.advance(MIN);
    expect(await s.tick()).toEqual(['failing']);
    await s.stop();
  });

  it('asks a running job to stop on shutdown instead of waiting for its end', async () => {
    const scheduler = new Scheduler({
      db: t.db,
      clock: fixedClock('2026-11-22T10:00:00Z'),
      log: silent,
      owner: 'a',
    });
    let steps = 0;
    scheduler.add({
      name: 'long',
      intervalMs: 60_000,
      async run(_now, signal) {
        while (!signal.aborted) {
          steps += 1;
          await new Promise((r) => setTimeout(r, 5));
        }
        signal.throwIfAborted();
      },
    });
    await scheduler.tick();
    await new Promise((r) => setTimeout(r, 30));
    await scheduler.stop();
    expect(steps).toBeGreaterThan(0);
    const state = await t.db.query<{ last_error: string | null }>(
      "SELECT last_error FROM job_state WHERE name = 'long'",
    );
    expect(state.rows[0]!.last_error).toMatch(/abort/i);
  });

  it('refuses to register the same job twice', () => {
    const s = new Scheduler({ db: t.db, clock: fixedClock('2026-05-01T00:00:00Z'), log: silent });
    s.add(countingJob('dup', MIN).job);
    expect(() => s.add(countingJob('dup', MIN).job)).toThrow('job dup is registered twice');
  });
});
