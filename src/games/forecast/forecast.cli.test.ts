import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli.js';

const DAY = 86_400_000;
const date = (i: number) => new Date(Date.UTC(2026, 6, 1) + i * DAY).toISOString().slice(0, 10);
const rows = (n: number) => Array.from({ length: n }, (_, i) => `${date(i)},${100 + (i % 7) * 5}`);

/** `svc forecast …` end to end through the CLI entry, stdin given as text. */
async function svcForecast(args: string[], stdin: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ['forecast', ...args],
    { LOG_LEVEL: 'silent' },
    {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      stdin: Readable.from([Buffer.from(stdin)]),
    },
  );
  return { code, out, err: err.join('\n') };
}

describe('svc forecast', () => {
  it('reads date,value rows and prints one date,point,lower,upper row per horizon day', async () => {
    const r = await svcForecast(
      ['--horizon', '30', '--level', '0.8'],
      ['date,value', ...rows(28)].join('\n'),
    );
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out[0]).toBe('date,point,lower,upper');
    expect(r.out).toHaveLength(31);
    expect(r.out[1]!.split(',')[0]).toBe(date(28));
    expect(r.out[30]!.split(',')[0]).toBe(date(57));
    for (const line of r.out.slice(1)) {
      const [, point, lower, upper] = line.split(',').map(Number);
      expect(0 <= lower! && lower! <= point! && point! <= upper!).toBe(true);
    }
  });

  it('needs no header and defaults to 30 days at 80%', async () => {
    const r = await svcForecast([], `${rows(14).join('\r\n')}\r\n`);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(31);
  });

  it('exits 2 naming the line of a row it cannot read', async () => {
    const text = ['date,value', ...rows(10), '2026-07-11,lots', ...rows(5)].join('\n');
    expect(await svcForecast([], text)).toEqual({
      code: 2,
      out: [],
      err: 'svc forecast: line 12: "lots" is not a number ≥ 0\nusage: svc forecast [--horizon N] [--level L] < series.csv',
    });
    const r = await svcForecast([], ['date,value', '2026-02-30,4'].join('\n'));
    expect(r.err).toContain('line 2: "2026-02-30" is not a YYYY-MM-DD date');
  });

  it('exits 2 on fewer than 14 days, a horizon outside 1..90, a level outside (0,1) and unknown flags', async () => {
    const data = rows(20).join('\n');
    expect((await svcForecast([], rows(13).join('\n'))).err).toContain(
      'need at least 14 days of history (got 13)',
    );
    for (const [args, message] of [
      [['--horizon', '0'], '--horizon must be a whole number from 1 to 90 (got "0")'],
      [['--horizon', '91'], '--horizon must be a whole number from 1 to 90 (got "91")'],
      [['--horizon', '7.5'], '--horizon must be a whole number from 1 to 90'],
      [['--level', '1'], '--level must be a number between 0 and 1'],
      [['--level', 'high'], '--level must be a number between 0 and 1'],
      [['--days', '3'], "Unknown option '--days'"],
    ] as const) {
      const r = await svcForecast([...args], data);
      expect(r.code).toBe(2);
      expect(r.out).toEqual([]);
      expect(r.err).toContain(message);
    }
  });
});
