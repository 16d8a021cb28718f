import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import {
  AnalysisGate,
  createAnalysisPool,
  defaultLimits,
  RETRY_AFTER_SECONDS,
  workerFile,
} from './devlens.pool.js';
import { FileBytes } from './file-bytes.js';

const CSV =
  'Breakdown,Date,Daily Active Users\nTotal,2024-02-23T00:00:00.000Z,264\nTotal,2024-02-24T00:00:00.000Z,355\n';

describe('AnalysisGate', () => {
  it('admits up to the per-user and total caps, answers 503 with Retry-After past them, and frees slots once', () => {
    const gate = new AnalysisGate({ total: 3, perUser: 2 });
    const a1 = gate.enter(1);
    gate.enter(1);
    const mine = (() => {
      try {
        gate.enter(1);
      } catch (err) {
        return err;
      }
    })();
    expect(mine).toBeInstanceOf(AppError);
    expect(mine).toMatchObject({ status: 503, code: 'temporarily_unavailable' });
    expect((mine as AppError).headers).toEqual({ 'Retry-After': String(RETRY_AFTER_SECONDS) });

    gate.enter(2);
    expect(() => gate.enter(3)).toThrow('Dev Lens is analysing as many files as it can right now');
    expect(gate.size).toBe(3);
    a1();
    a1(); // a second release changes nothing
    expect(gate.size).toBe(2);
    gate.enter(3);
    expect(() => gate.enter(1)).toThrow('Dev Lens is analysing as many files as it can right now');
  });

  it('leaves one core to the event loop and lets a few uploads wait beyond the threads', () => {
    expect(defaultLimits(1)).toEqual({ threads: 1, total: 4, perUser: 2 });
    expect(defaultLimits(2)).toEqual({ threads: 1, total: 4, perUser: 2 });
    expect(defaultLimits(8)).toEqual({ threads: 7, total: 16, perUser: 2 });
  });
});

describe('the worker module', () => {
  it('is the compiled JS next to the built pool, and the tsx bootstrap next to the TypeScript source', () => {
    expect(workerFile('file:///srv/svc/dist/devlens/devlens.pool.js')).toBe(
      'file:///srv/svc/dist/devlens/analysis.worker.js',
    );
    expect(workerFile('file:///work/svc/src/devlens/devlens.pool.ts')).toBe(
      'file:///work/svc/src/devlens/analysis.worker.dev.mjs',
    );
  });
});

describe('the analysis pool', () => {
  const pool = createAnalysisPool({ threads: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'devlens-pool-'));
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('analyses a file on a worker thread and returns the core’s refusals as the same AppErrors', async () => {
    const analysis = await pool.analyse(FileBytes.of(CSV), 'rpg');
    expect(analysis.file_type).toBe('engagement');
    expect(analysis.benchmark_source.genre).toBe('rpg');
    expect(analysis.coverage).toMatchObject({ rows: 2, days: 2 });

    const empty = await pool.analyse(FileBytes.of(''), undefined).catch((err: unknown) => err);
    expect(empty).toBeInstanceOf(AppError);
    expect(empty).toMatchObject({ status: 422, code: 'empty_file', message: 'The file is empty.' });
    const genre = await pool.analyse(FileBytes.of(CSV), 'knitting').catch((err: unknown) => err);
    expect(genre).toMatchObject({ status: 422, code: 'validation_failed', fields: { field: 'body.genre' } });
  });

  it('rejects with a plain error when its worker throws or dies, and keeps serving afterwards', async () => {
    const file = join(dir, 'faulty.worker.mjs');
    writeFileSync(
      file,
      `export default (task) => {
         if (task.genre === 'exit') process.exit(3);
         if (task.genre === 'throw') throw new TypeError('a bug');
         return { ok: true, analysis: { file_type: 'funnel', length: task.length } };
       };`,
    );
    const faulty = createAnalysisPool({ threads: 1, filename: pathToFileURL(file).href });
    try {
      for (const genre of ['exit', 'throw']) {
        const err = await faulty.analyse(FileBytes.of(CSV), genre).catch((e: unknown) => e);
        expect(err).not.toBeInstanceOf(AppError);
        expect((err as Error).message).toBe('The Dev Lens analysis failed in its worker thread.');
      }
      expect(await faulty.analyse(FileBytes.of(CSV), undefined)).toEqual({
        file_type: 'funnel',
        length: CSV.length,
      });
    } finally {
      await faulty.close();
    }
  });

  it('stops an analysis whose client went away', async () => {
    const gone = new AbortController();
    gone.abort();
    const err = await pool.analyse(FileBytes.of(CSV), undefined, gone.signal).catch((e: unknown) => e);
    expect((err as Error).message).toBe('The Dev Lens analysis failed in its worker thread.');
    expect((await pool.analyse(FileBytes.of(CSV), undefined)).file_type).toBe('engagement');
  });
});

describe('FileBytes', () => {
  it('holds the bytes appended in any chunking, in order, across its blocks', () => {
    const content = Buffer.alloc(2.5 * 1024 * 1024 + 7);
    for (let i = 0; i < content.length; i++) content[i] = (i * 31) % 251;
    const bytes = FileBytes.empty();
    for (let at = 0; at < content.length; at += 65_000) bytes.append(content.subarray(at, at + 65_000));
    expect(bytes.length).toBe(content.length);
    expect(bytes.blocks).toHaveLength(3);
    expect(Buffer.concat([...bytes.slices()]).equals(content)).toBe(true);
    const again = FileBytes.fromBlocks(bytes.blocks, bytes.length);
    expect(Buffer.concat([...again.slices()]).equals(content)).toBe(true);
  });
});
