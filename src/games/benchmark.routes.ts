import { Type } from 'typebox';
import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { BenchmarkBody, BenchmarkResult, type BenchmarkResultT } from './benchmark.schemas.js';
import type { BenchmarkService } from './benchmark.service.js';

const DESCRIPTION = [
  'Compares a collected game (by root place id; 404 not_found otherwise) with the other games of its genre.',
  "Percentiles are mid-ranks among the OTHER games of the genre that have the value: round(100 × (games below + ½ × games level with it) / games compared), halves rounded up. The genre's best game scores 100, its worst 0; a game level with all the others 50. null when no other game of the genre has the value.",
  'Values compared: `ccu` the latest reading; `visits` the total; `like_ratio` = likes / (likes + dislikes), only among games with votes (null when the game itself has none); `gamepass_count` only among games whose pass list was read (null while the game’s own is unread). A game the platform never read compares as 0 CCU and 0 visits; other never-read games are left out.',
  '`genre_averages` are means over the games of the genre that have the value, this one included: `avg_ccu`, `avg_visits` (two decimals) and `avg_like_ratio`, the mean of the per-game like ratios (four decimals); null when no game has the value.',
  'Signed-in users only (cookie with X-CSRF-Token, or bearer); API keys get 403 api_key_read_only.',
].join('\n\n');

export function registerBenchmarkRoutes(app: App, benchmark: BenchmarkService): void {
  app.post(
    '/api/benchmark',
    {
      config: { access: { auth: 'user' } },
      schema: {
        tags: ['games'],
        summary: 'Percentiles of a game within its genre',
        description: DESCRIPTION,
        body: BenchmarkBody,
        response: { 200: Type.Ref('BenchmarkResult'), ...errorResponses(404, 422) },
      },
    },
    async (request): Promise<BenchmarkResultT> => benchmark.benchmark(request.body.place_id),
  );
}

export const benchmarkSchemas = [BenchmarkResult];
