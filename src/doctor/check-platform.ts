/**
 * The platform source (PLATFORM_SOURCE). The simulated market is built and asked for one reading,
 * and its shape reported; the Roblox web APIs get one cheap request (one universe from
 * GET games.roblox.com/v1/games), a single attempt within the check's limit, and the line says
 * why it failed when it did (the client's own reason: timeout, HTTP status, body not JSON).
 */
// The doctor asks with its own timeout and a single attempt, which createPlatformSource does not
// offer: it builds the Roblox source itself.
import {
  createRobloxSource,
  createSimulatedSource,
  type PlatformSource,
  simulatedShape,
} from '../platform/index.js';
import type { Check, CheckContext, Finding, RobloxCheckOptions } from './doctor.js';

/** Classic: Crossroads, published by Roblox itself (realdata/roblox-api holds its recorded reply). */
export const PROBE_UNIVERSE = 13058;

const count = (n: number) => n.toLocaleString('en-US');

async function simulated(ctx: CheckContext): Promise<Finding> {
  const seed = ctx.config.simulationSeed;
  ctx.step('building the simulated market');
  const source = createSimulatedSource({ seed, shape: simulatedShape(ctx.config) });
  const now = ctx.now();
  const live = await source.discover(now);
  const first = live[0];
  const read = first === undefined ? undefined : (await source.getGames([first], now)).items.get(first);
  if (!read) return { status: 'FAIL', detail: `simulated market (seed ${seed}): no game is live now` };
  const genres = new Set(source.catalogue.map((g) => g.genre)).size;
  return {
    status: 'ok',
    detail:
      `simulated market (SIMULATION_SEED ${seed}): ${count(source.catalogue.length)} games in ` +
      `${genres} genres, ${count(live.length)} live now`,
  };
}

async function roblox(ctx: CheckContext): Promise<Finding> {
  const failures: Record<string, unknown>[] = [];
  const options: RobloxCheckOptions = {
    // A little under the check's limit, so the client's own reason is what the line says.
    timeoutMs: Math.max(100, ctx.limitMs - 250),
    maxAttempts: 1,
    log: { warn: (obj) => failures.push(obj) },
  };
  const source: PlatformSource = ctx.robloxSource?.(options) ?? createRobloxSource(options);
  ctx.defer(() => source.close?.());
  ctx.about('Roblox web APIs');
  ctx.step('GET v1/games');
  const started = performance.now();
  const result = await source.getGames([PROBE_UNIVERSE], ctx.now());
  const ms = Math.round(performance.now() - started);
  const failure = failures[0];
  if (failure) {
    const detail = typeof failure.detail === 'string' ? failure.detail : 'no detail';
    return {
      status: 'FAIL',
      detail: `Roblox web APIs: GET v1/games failed: ${String(failure.reason)} (${detail})`,
    };
  }
  const game = result.items.get(PROBE_UNIVERSE);
  if (!game) {
    return {
      status: 'FAIL',
      detail: `Roblox web APIs: GET v1/games answered in ${ms} ms without universe ${PROBE_UNIVERSE} in a shape svc reads`,
    };
  }
  return {
    status: 'ok',
    detail: `Roblox web APIs: GET v1/games answered in ${ms} ms (universe ${PROBE_UNIVERSE} "${game.name}", ${count(game.playing)} playing)`,
  };
}

export const platformCheck: Check = {
  name: 'platform',
  run: (ctx) => (ctx.config.platformSource === 'roblox' ? roblox(ctx) : simulated(ctx)),
};
