/**
 * npm run bench [-- suite …] [--duration seconds] [--connections n]
 * Runs the named suites (all by default), prints a table and writes bench/results.json.
 */

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { analyticsSuite } from './analytics.bench.js';
import { authSuite } from './auth.bench.js';
import { devlensSuite } from './devlens.bench.js';
import { forecastSuite } from './forecast.bench.js';
import { httpSuite } from './http.bench.js';
import { ingestSuite } from './ingest.bench.js';
import type { Figure, Suite } from './lib.js';
import { marketSuite } from './market.bench.js';
import { soakSuite } from './soak.bench.js';
import { teamsSuite } from './teams.bench.js';
import { ugcSuite } from './ugc.bench.js';
import { webSuite } from './web.bench.js';

const SUITES: Suite[] = [
  httpSuite,
  authSuite,
  marketSuite,
  ugcSuite,
  forecastSuite,
  devlensSuite,
  ingestSuite,
  analyticsSuite,
  teamsSuite,
  webSuite,
  soakSuite,
];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log('usage: npm run bench -- [suite …] [--duration seconds] [--connections n]\n\nsuites:');
  for (const s of SUITES) console.log(`  ${s.name.padEnd(10)} ${s.description}`);
  process.exit(0);
}

const unknown = positionals.filter((p) => !SUITES.some((s) => s.name === p));
if (unknown.length > 0) {
  console.error(`unknown suite(s): ${unknown.join(', ')}; known: ${SUITES.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const chosen = positionals.length > 0 ? SUITES.filter((s) => positionals.includes(s.name)) : SUITES;
const options = { durationSec: Number(values.duration), connections: Number(values.connections) };

const figures: Figure[] = [];
for (const suite of chosen) {
  console.log(`bench: ${suite.name}: ${suite.description}`);
  figures.push(...(await suite.run(options)));
}

const rows = figures.map((f) => ({
  suite: f.suite,
  figure: f.name,
  value: `${f.value} ${f.unit}`,
  floor: f.floor ? `${f.floor.value} ${f.unit} (${f.floor.name})` : '',
  ratio: f.ratio ?? '',
  goal: f.goal ?? '',
}));
console.table(rows);
writeFileSync(
  new URL('./results.json', import.meta.url),
  `${JSON.stringify({ at: new Date().toISOString(), node: process.version, options, figures }, null, 2)}\n`,
);
console.log('bench: wrote bench/results.json');
