/**
 * Refits IMPACT_SD_SCALE (src/updates/impact.ts): on the placebo release days of simulated seed 2,
 * the scale at each level is the level's quantile of |log(O/C)| / s over that level's normal
 * quantile. Prints the fitted scales and, for comparison, what the constants in the code give.
 *   npx tsx scripts/fit-update-impact.ts
 */
import { normalQuantile } from '../src/stats.js';
import { IMPACT_SD_SCALE } from '../src/updates/impact.js';
import { coverage, impactCases } from '../test/helpers/update-impact.js';

const cases = impactCases(2, 'placebo');
// s from the 80% interval the code gave: ln((1 + hi) / (1 + impact)) = z80 · k80 · s.
const z80 = normalQuantile(0.9);
const scores = cases
  .map((c) => {
    const s = Math.log((1 + c.measured.ci80[1]) / (1 + c.measured.impact)) / (z80 * IMPACT_SD_SCALE[0.8]);
    return Math.abs(Math.log((1 + c.measured.impact) / (1 + c.truth))) / s;
  })
  .sort((a, b) => a - b);
const scaleAt = (level: number) =>
  scores[Math.floor(level * scores.length)]! / normalQuantile((1 + level) / 2);
console.log(
  JSON.stringify({
    cases: cases.length,
    fitted: { 0.8: Number(scaleAt(0.8).toFixed(3)), 0.95: Number(scaleAt(0.95).toFixed(3)) },
    inCode: IMPACT_SD_SCALE,
    coverageWithCode: { ci80: coverage(cases, 'ci80'), ci95: coverage(cases, 'ci95') },
  }),
);
