import { parse } from 'csv-parse';
import { analyseCsv } from '../src/devlens/analysis.js';
import { type Figure, ratio, type Suite } from './lib.js';

const ROWS = 1_000_000;

/**
 * A daily KPI table of 1,000,000 rows (`Date;DAU`, 1,000 days × 1,000 segments' rows), as 64 KiB
 * chunks, the way an upload streams in. At 13 bytes a row it is 12.4 MiB: the route stops uploads
 * at 10 MiB (≈ 806,000 such rows), so this measures the core a little past what users can send.
 */
function upload(): Buffer[] {
  const days = Array.from({ length: 1000 }, (_, i) =>
    new Date(Date.UTC(2022, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
  );
  const lines = ['Date;DAU'];
  for (let i = 0; i < ROWS; i++) lines.push(`${days[i % 1000]};${i % 10}`);
  const all = Buffer.from(`${lines.join('\n')}\n`);
  const chunks: Buffer[] = [];
  for (let at = 0; at < all.length; at += 65_536) chunks.push(all.subarray(at, at + 65_536));
  return chunks;
}

async function* stream(chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (const c of chunks) yield c;
}

/** The floor: csv-parse reading the same bytes and nothing else. */
async function parseOnly(chunks: Buffer[]): Promise<number> {
  let rows = 0;
  const parser = parse({ delimiter: ';', relax_column_count: true });
  const done = (async () => {
    for await (const _record of parser) rows += 1;
  })();
  for (const c of chunks) parser.write(c);
  parser.end();
  await done;
  return rows;
}

async function best(times: number, fn: () => Promise<unknown>): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

export const devlensSuite: Suite = {
  name: 'devlens',
  description: `Dev Lens analysis of a ${ROWS.toLocaleString('en')}-row upload against parsing the same CSV`,
  async run() {
    const chunks = upload();
    const bytes = chunks.reduce((n, c) => n + c.length, 0);
    const floor = await best(2, () => parseOnly(chunks));
    const subject = await best(2, () => analyseCsv(stream(chunks), {}));
    const figures: Figure[] = [
      {
        suite: 'devlens',
        name: `analyse ${ROWS.toLocaleString('en')} rows (${(bytes / 1_048_576).toFixed(1)} MiB)`,
        value: Math.round(subject),
        unit: 'ms',
        floor: { name: 'csv-parse alone', value: Math.round(floor) },
        ratio: ratio(subject, floor),
        goal: '≤ 3 (and under 5 s)',
      },
    ];
    return figures;
  },
};
