import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emptyDb, type TestDb, testEngines } from '../../test/helpers/db.js';

describe.each(testEngines())('Db: COPY and commitWith (%s)', (engine) => {
  let t: TestDb;
  const rows = async () =>
    (await t.db.query<{ a: number; b: string | null }>('SELECT a, b FROM x ORDER BY a')).rows;

  beforeAll(async () => {
    t = await emptyDb(engine);
    await t.db.exec('CREATE TABLE x (a int PRIMARY KEY, b text)');
  });
  afterAll(() => t.dispose());
  beforeEach(() => t.db.exec('DELETE FROM x'));

  it('copies rows in COPY text format, on the pool and inside a transaction', async () => {
    await t.db.copyIn('COPY x (a, b) FROM STDIN', '1\tone\n2\t\\N\n');
    await t.db.transaction((tx) => tx.copyIn('COPY x (a, b) FROM STDIN', '3\ttab\\there\n'));
    expect(await rows()).toEqual([
      { a: 1, b: 'one' },
      { a: 2, b: null },
      { a: 3, b: 'tab\there' },
    ]);
  });

  it('copies data given in pieces, strings and bytes, as their concatenation', async () => {
    // 'é' is 0xc3 0xa9 in UTF-8: split between two pieces of bytes, it still arrives whole.
    const e = Buffer.from('5\tcaf\u00e9\n');
    await t.db.copyIn('COPY x (a, b) FROM STDIN', [
      '1\tone\n2\t',
      '',
      'two\n',
      e.subarray(0, 6),
      e.subarray(6),
    ]);
    await t.db.transaction((tx) =>
      tx.copyIn('COPY x (a, b) FROM STDIN', [Buffer.from('3\tthree\n'), '4\t\\N\n']),
    );
    expect(await rows()).toEqual([
      { a: 1, b: 'one' },
      { a: 2, b: 'two' },
      { a: 3, b: 'three' },
      { a: 4, b: null },
      { a: 5, b: 'café' },
    ]);
  });

  it('fails a COPY of bad data, and its transaction stores nothing', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('INSERT INTO x VALUES (9, $1)', ['kept?']);
        await tx.copyIn('COPY x (a, b) FROM STDIN', 'not-a-number\tz\n');
      }),
    ).rejects.toThrow();
    expect(await rows()).toEqual([]);
    // The pool is still usable afterwards.
    await t.db.copyIn('COPY x (a, b) FROM STDIN', '4\tok\n');
    expect(await rows()).toEqual([{ a: 4, b: 'ok' }]);
  });

  it('commitWith runs the statements, returns their results and commits', async () => {
    const results = await t.db.transaction(async (tx) => {
      await tx.query('INSERT INTO x VALUES (1, $1)', ['first']);
      return tx.commitWith([
        { sql: 'INSERT INTO x VALUES ($1, $2) RETURNING a', params: [2, 'second'] },
        { sql: 'SELECT count(*)::int AS n FROM x' },
      ]);
    });
    expect(results.map((r) => r.rows)).toEqual([[{ a: 2 }], [{ n: 2 }]]);
    expect(await rows()).toEqual([
      { a: 1, b: 'first' },
      { a: 2, b: 'second' },
    ]);
  });

  it('commitWith commits nothing when one statement fails, and throws its error', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('INSERT INTO x VALUES (1, $1)', ['before']);
        await tx.commitWith([
          { sql: 'INSERT INTO x VALUES (2, $1)', params: ['in'] },
          { sql: 'INSERT INTO x VALUES (1, $1)', params: ['duplicate key'] },
          { sql: 'INSERT INTO x VALUES (3, $1)', params: ['after'] },
        ]);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await rows()).toEqual([]);
    // The connection went back to the pool in a usable state.
    await t.db.transaction((tx) => tx.commitWith([{ sql: 'INSERT INTO x VALUES (5, $1)', params: ['ok'] }]));
    expect(await rows()).toEqual([{ a: 5, b: 'ok' }]);
  });
});
