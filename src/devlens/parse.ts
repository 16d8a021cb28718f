/**
 * Streaming CSV reading: UTF-8 decoding (BOM or not; invalid UTF-8 or control bytes mean a binary file),
 * delimiter sniffing (comma or semicolon) on the first lines, then csv-parse record by record so a
 * 10 MB upload never sits in memory as row objects. Only AppErrors leave this module for bad input.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import { errors } from '../errors.js';

export type CsvInput = AsyncIterable<Buffer | string> | Buffer | string;
export type Delimiter = ',' | ';';

/** Enough text to see the preamble and the header of any known layout. */
const SNIFF_CHARS = 16 * 1024;
// Control characters other than tab, LF, CR never occur in a text export: their presence means binary.
// biome-ignore lint/suspicious/noControlCharactersInRegex: detecting control bytes is the point.
const BINARY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

async function* chunksOf(input: CsvInput): AsyncGenerator<Buffer | string> {
  if (typeof input === 'string' || Buffer.isBuffer(input)) yield input;
  else yield* input;
}

/** Decodes to text, rejecting binary input with the line where it starts. */
async function* decode(input: CsvInput): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lines = 1;
  let first = true;
  const check = (text: string): string => {
    const bad = text.search(BINARY);
    if (bad >= 0) throw binaryAt(lines + countNewlines(text.slice(0, bad)));
    lines += countNewlines(text);
    return text;
  };
  for await (const chunk of chunksOf(input)) {
    let text: string;
    try {
      text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    } catch {
      throw binaryAt(lines + newlinesBeforeInvalid(chunk));
    }
    if (first && text.length > 0) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.length > 0) yield check(text);
  }
  let tail: string;
  try {
    tail = decoder.decode();
  } catch {
    throw binaryAt(lines);
  }
  if (tail.length > 0) yield check(tail);
}

function binaryAt(line: number) {
  return errors.unprocessable('invalid_csv', `The file is not UTF-8 text (binary data at line ${line}).`);
}

/** Newlines before the first byte that is not UTF-8, to name the line. */
function newlinesBeforeInvalid(chunk: Buffer | string): number {
  const loose = new TextDecoder('utf-8').decode(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  const bad = loose.indexOf('\uFFFD');
  return countNewlines(bad >= 0 ? loose.slice(0, bad) : loose);
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The first non-blank line that uses one separator more than the other decides; comma by default. */
export function sniffDelimiter(head: string): Delimiter {
  let seen = 0;
  for (const raw of head.split('\n')) {
    const line = raw.replace(/"[^"]*"/g, '');
    if (line.trim() === '') continue;
    const commas = line.split(',').length - 1;
    const semis = line.split(';').length - 1;
    if (semis !== commas) return semis > commas ? ';' : ',';
    if (++seen >= 10) break;
  }
  return ',';
}

export interface CsvSource {
  delimiter: Delimiter;
  records: AsyncIterable<string[]>;
}

/** Opens the input as records; throws 422 empty_file when there is no text at all. */
export async function openCsv(input: CsvInput): Promise<CsvSource> {
  const texts = decode(input);
  const head: string[] = [];
  let headLength = 0;
  let done = false;
  while (headLength < SNIFF_CHARS) {
    const next = await texts.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.length;
  }
  const headText = head.join('');
  if (done && headText.trim() === '') throw errors.unprocessable('empty_file', 'The file is empty.');
  const delimiter = sniffDelimiter(headText);
  async function* all(): AsyncGenerator<string> {
    yield headText;
    if (!done) yield* texts;
  }
  return { delimiter, records: records(all(), delimiter) };
}

async function* records(texts: AsyncGenerator<string>, delimiter: Delimiter): AsyncGenerator<string[]> {
  const parser = parse({
    delimiter,
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
    trim: true,
  });
  // The pipeline's own rejection is the parser's error, which the loop below rethrows; catch it here
  // so an early stop (unknown layout) is not an unhandled rejection.
  pipeline(Readable.from(texts), parser).catch(() => undefined);
  try {
    for await (const record of parser) yield record as string[];
  } catch (err) {
    if (err instanceof CsvError) {
      const line = (err as CsvError & { lines?: number }).lines;
      throw errors.unprocessable(
        'invalid_csv',
        `The file is not valid CSV (${err.code} at line ${line ?? '?'}).`,
      );
    }
    throw err;
  }
}
