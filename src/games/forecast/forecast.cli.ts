/**
 * `svc forecast --horizon N --level L < series.csv`: runs the forecasting engine on anyone's daily
 * series, so the forecaster can be checked on their own data. Reads `date,value` rows (header
 * optional), prints `date,point,lower,upper`. Needs no database and no configuration.
 */

import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { type DailyValue, forecastSeries, MIN_HISTORY_DAYS } from './engine.js';
import { dayNumber } from './series.js';

export const FORECAST_USAGE = 'svc forecast [--horizon N] [--level L] < series.csv';
export const MAX_HORIZON = 90;

export interface ForecastCliIo {
  stdin: AsyncIterable<string | Buffer | Uint8Array>;
  out: (line: string) => void;
  err: (line: string) => void;
}

class ForecastInputError extends Error {}

function parseFlags(args: string[]): { horizon: number; level: number } {
  let values: { horizon?: string | undefined; level?: string | undefined };
  try {
    ({ values } = parseArgs({
      args,
      options: { horizon: { type: 'string', default: '30' }, level: { type: 'string', default: '0.8' } },
      strict: true,
    }));
  } catch (err) {
    throw new ForecastInputError(err instanceof Error ? err.message : String(err));
  }
  const horizon = Number(values.horizon);
  const level = Number(values.level);
  if (!Number.isInteger(horizon) || horizon < 1 || horizon > MAX_HORIZON) {
    throw new ForecastInputError(
      `--horizon must be a whole number from 1 to ${MAX_HORIZON} (got "${values.horizon}")`,
    );
  }
  if (!(level > 0 && level < 1)) {
    throw new ForecastInputError(
      `--level must be a number between 0 and 1, e.g. 0.8 (got "${values.level}")`,
    );
  }
  return { horizon, level };
}

async function readAll(stdin: ForecastCliIo['stdin']): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of stdin)
    text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** `date,value` rows → daily values; a first row that is not data is taken as the header. */
function parseSeries(text: string): DailyValue[] {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    // With `info: true` each record comes as {record, info}; csv-parse's types do not model that.
    rows = parse(text, {
      info: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      bom: true,
    }) as unknown as typeof rows;
  } catch (err) {
    throw new ForecastInputError(`unreadable CSV: ${err instanceof Error ? err.message : String(err)}`);
  }
  const seen = new Set<string>();
  const series: DailyValue[] = [];
  rows.forEach(({ record, info }, i) => {
    const [date = '', raw = '', ...rest] = record;
    if (i === 0 && Number.isNaN(dayNumber(date)) && !/^\d/.test(date)) return; // header
    const value = raw === '' ? Number.NaN : Number(raw);
    const where = `line ${info.lines}`;
    if (rest.length > 0)
      throw new ForecastInputError(`${where}: expected 2 columns (date,value), got ${record.length}`);
    if (Number.isNaN(dayNumber(date)))
      throw new ForecastInputError(`${where}: "${date}" is not a YYYY-MM-DD date`);
    if (!Number.isFinite(value) || value < 0) {
      throw new ForecastInputError(`${where}: "${raw}" is not a number ≥ 0`);
    }
    if (seen.has(date)) throw new ForecastInputError(`${where}: date ${date} appears twice`);
    seen.add(date);
    series.push({ date, value });
  });
  if (series.length < MIN_HISTORY_DAYS) {
    throw new ForecastInputError(`need at least ${MIN_HISTORY_DAYS} days of history (got ${series.length})`);
  }
  return series;
}

const fmt = (v: number) => String(Math.round(v * 100) / 100);

/** Exit codes: 0 printed, 2 bad flags or input (the message names the line). */
export async function forecastCommand(args: string[], io: ForecastCliIo): Promise<number> {
  try {
    const options = parseFlags(args);
    const result = forecastSeries(parseSeries(await readAll(io.stdin)), options);
    io.out('date,point,lower,upper');
    for (const p of result.points) io.out(`${p.date},${fmt(p.point)},${fmt(p.lower)},${fmt(p.upper)}`);
    return 0;
  } catch (err) {
    if (!(err instanceof ForecastInputError)) throw err;
    io.err(`svc forecast: ${err.message}\nusage: ${FORECAST_USAGE}`);
    return 2;
  }
}
