/**
 * How crash traces and error messages are normalised before grouping (migration 0025:
 * sdk_normalise_line, sdk_crash_frames), on each engine: line and column numbers, addresses, hex
 * ids, numbers in identifiers, file paths and blank lines taken out; the hash a group takes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb, testEngines } from '../../test/helpers/db.js';

describe.each(testEngines())('crash trace normalisation (%s)', (engine) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await migratedDb(engine);
  });
  afterAll(() => t.dispose());

  const line = async (s: string) =>
    (await t.db.query<{ n: string }>('SELECT sdk_normalise_line($1) AS n', [s])).rows[0]!.n;
  const frames = async (s: string) =>
    (await t.db.query<{ f: string[] }>('SELECT sdk_crash_frames($1) AS f', [s])).rows[0]!.f;
  const hash = async (s: string) =>
    (await t.db.query<{ h: string }>("SELECT md5(array_to_string(sdk_crash_frames($1), E'\\n')) AS h", [s]))
      .rows[0]!.h;

  it('replaces line and column numbers, addresses, hex ids and numbers in identifiers', async () => {
    expect(await line("Workspace.Map.Zone3.Door:12: attempt to index nil with 'Open'")).toBe(
      "Workspace.Map.Zone<n>.Door:<n>: attempt to index nil with 'Open'",
    );
    expect(await line('  at 0x7ffe12ab applyDamage  ')).toBe('at <hex> applyDamage');
    expect(await line('object 3f2a9c1e-aaaa-bbbb-cccc-0123456789ab id 00ff00ff11 deadbeefcafe')).toBe(
      'object <hex> id <hex> deadbeefcafe',
    );
    expect(await line('Remote request timed out after 29512 ms')).toBe(
      'Remote request timed out after <n> ms',
    );
  });

  it('cuts file paths down to the file name, Unix and Windows', async () => {
    expect(await line('at Foo.bar (/home/ci/build/src/game/main.js:42:17)')).toBe(
      'at Foo.bar (main.js:<n>:<n>)',
    );
    expect(await line('at C:\\Users\\dev\\Game\\Player.cs:12')).toBe('at Player.cs:<n>');
    expect(await line('Failed to load asset rbxassetid://123456')).toBe(
      'Failed to load asset rbxassetid:<n>',
    );
  });

  it('keeps the first 5 non-blank lines, in order', async () => {
    const trace = 'Error: boom\r\n\n   \n a1 \nb2\nc\nd\ne\nf';
    expect(await frames(trace)).toEqual(['Error: boom', 'a<n>', 'b<n>', 'c', 'd']);
    expect(await frames('\n\n')).toEqual([]);
  });

  it('gives two traces that differ only in line numbers and addresses one hash, and different frames another', async () => {
    const a =
      "Script 'ServerScriptService.Combat', Line 120\n  at 0x1a2b3c4d applyDamage\nScript 'ReplicatedStorage.Net', Line 8";
    const b =
      "Script 'ServerScriptService.Combat', Line 377\n\n  at 0xffee0011 applyDamage\r\nScript 'ReplicatedStorage.Net', Line 61";
    const c =
      "Script 'ServerScriptService.Trade', Line 120\n  at 0x1a2b3c4d settleTrade\nScript 'ReplicatedStorage.Net', Line 8";
    expect(await hash(a)).toBe(await hash(b));
    expect(await hash(a)).not.toBe(await hash(c));
    // md5 of the three normalised frames joined by newlines, as any md5 tool computes it.
    expect(await hash(a)).toBe(
      (
        await t.db.query<{ h: string }>('SELECT md5($1) AS h', [
          "Script 'ServerScriptService.Combat', Line <n>\nat <hex> applyDamage\nScript 'ReplicatedStorage.Net', Line <n>",
        ])
      ).rows[0]!.h,
    );
  });
});
