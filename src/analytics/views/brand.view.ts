/**
 * brand: brand activation. Per zone: reach, entries and the median dwell; per item: players
 * equipping and repeat-equip; the share funnel zone reach → equipped → shared, per destination.
 * Every count of players is exact (distinct players of the range, brand.repo.ts); the dwell median
 * is taken over tenths of a second (within 0.05 s of the exact one), as `percentile_method` says.
 * A range without any brand-activation event gets the interface's proxies instead (`proxies`):
 * every active player as reached, the average session length as dwell, payers per active player as
 * repeat-equip, from the part-1 rollups.
 */
import { Type } from 'typebox';
import { viewResponse } from '../analytics.schemas.js';
import { rangePlayers } from './activity.repo.js';
import { BRAND_LIST_LIMIT, itemStats, shareFunnel, zoneStats } from './brand.repo.js';
import { dayFigures, percentile, sessionFigures } from './daily.js';
import { ratio4, roundOrNull } from './figures.js';
import type { View, ViewContext } from './view.js';

export const PROXY_METHOD =
  'interface §6 proxies without brand-activation events: reach = active players, dwell = average session length, ' +
  'repeat-equip = paying players / active players';

export const DWELL_PERCENTILE_METHOD = 'tenths of a second, ±0.05 s';

const Share = (description: string) =>
  Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description });

const Stage = (players: string, from: string) =>
  Type.Object({
    players: Type.Integer({ minimum: 0, description: players }),
    conversion: Share(`${from}, 4 decimals (a share of 1); null when the previous stage has no players.`),
  });

export const BrandView = viewResponse(
  'SdkBrand',
  {
    zones: Type.Array(
      Type.Object({
        zone_id: Type.String({ description: 'The brand zone, as brand_zone_enter/exit send it.' }),
        reach: Type.Integer({
          minimum: 0,
          description:
            'Distinct players with a brand_zone_enter for the zone in the range (players, not player-days).',
        }),
        entries: Type.Integer({
          minimum: 0,
          description: 'brand_zone_enter events for the zone in the range.',
        }),
        exits: Type.Integer({
          minimum: 0,
          description:
            'brand_zone_exit events for the zone in the range; each counts its dwell, whether or not its enter was seen.',
        }),
        median_dwell_s: Type.Union([Type.Number(), Type.Null()], {
          description:
            'Seconds: median of the exits’ dwell_seconds (interpolating between the two middle exits, as percentile_cont), ' +
            'taken over values rounded to the tenth of a second (percentile_method), 2 decimals. An enter without an exit ' +
            'counts in reach, not here. null without exits.',
        }),
      }),
      {
        description: `Zones with an enter or exit in the range, most reach first (then exits, then zone_id); at most ${BRAND_LIST_LIMIT}.`,
      },
    ),
    percentile_method: Type.Literal(DWELL_PERCENTILE_METHOD, {
      description:
        'The dwell median is taken over dwell_seconds rounded to the tenth of a second, so it is within 0.05 s of the ' +
        'exact median.',
    }),
    items: Type.Array(
      Type.Object({
        item_id: Type.String({ description: 'The item, as equip sends it.' }),
        players: Type.Integer({
          minimum: 0,
          description: 'Distinct players who equipped the item in the range.',
        }),
        equips: Type.Integer({ minimum: 0, description: 'equip events for the item in the range.' }),
        repeat_players: Type.Integer({
          minimum: 0,
          description:
            'Players who equipped the item on 2 or more distinct UTC days of the range (any platform read; two ' +
            'platforms on one day are one day).',
        }),
        repeat_rate: Type.Number({
          minimum: 0,
          maximum: 1,
          description: 'repeat_players / players, 4 decimals (a share of 1).',
        }),
      }),
      {
        description: `Items equipped in the range, most players first (then item_id); at most ${BRAND_LIST_LIMIT}.`,
      },
    ),
    share_funnel: Type.Object(
      {
        zone_reach: Type.Object({
          players: Type.Integer({
            minimum: 0,
            description: 'Distinct players who entered any brand zone in the range.',
          }),
        }),
        equipped: Stage(
          'Of the zone_reach players, those who equipped any item in the range.',
          'equipped / zone_reach',
        ),
        shared: Stage(
          'Of the equipped players, those who shared (any share_platform) in the range.',
          'shared / equipped',
        ),
        overall_conversion: Share('shared / zone_reach, 4 decimals; null without zone_reach players.'),
        by_share_platform: Type.Array(
          Type.Object({
            share_platform: Type.String({ description: 'The share destination as sent.' }),
            players: Type.Integer({
              minimum: 0,
              description: 'Of the equipped players, those who shared to this destination in the range.',
            }),
            shares: Type.Integer({
              minimum: 0,
              description: 'Their share events to this destination in the range.',
            }),
            conversion: Share('players / equipped players, 4 decimals; null without equipped players.'),
          }),
          {
            description:
              'The shared stage per destination, most players first; a player may count in several.',
          },
        ),
      },
      {
        description:
          'A funnel of sets of players over the range: each stage keeps the players of the one before who also did ' +
          'its step in the range (in any order within the range: the rollups are per day). The segment and platform ' +
          'filters apply to every stage.',
      },
    ),
    proxies: Type.Union(
      [
        Type.Object({
          reach: Type.Integer({
            minimum: 0,
            description:
              'Proxy for zone reach: distinct players active in the range (every player counts as engaged).',
          }),
          dwell_s: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
            description:
              'Proxy for dwell, seconds: the average length of the sessions started in the range (as the engagement ' +
              'view’s session_length_s.avg), 2 decimals; null without sessions.',
          }),
          repeat_equip_rate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
            description:
              'Proxy for the repeat-equip rate: paying players / active players over the range (the paying/DAU ' +
              'ratio), 4 decimals; null without active players.',
          }),
          method: Type.Literal(PROXY_METHOD, { description: 'How each proxy is computed.' }),
        }),
        Type.Null(),
      ],
      {
        description:
          'null when the range has brand-activation events (brand_zone_enter, brand_zone_exit, equip, share). Without ' +
          'any, the figures above are empty and these proxies stand in for them, as the interface says dashboards do; ' +
          'they are estimates from general activity, not brand measurements.',
      },
    ),
  },
  'Brand activation over the range: zone reach, entries and median dwell, equips and repeat-equip, the share funnel; proxies from general activity when the range has no brand-activation event.',
);

/** The interface's stand-ins for a range with no brand-activation event. */
async function proxies(ctx: ViewContext) {
  const [players, figures] = await Promise.all([rangePlayers(ctx), dayFigures(ctx)]);
  return {
    reach: players.players,
    dwell_s: roundOrNull(sessionFigures(figures.days, ctx.range).length_avg),
    repeat_equip_rate: ratio4(players.paying_players, players.players),
    method: PROXY_METHOD,
  } as const;
}

export const brand: View<typeof BrandView> = {
  name: 'brand',
  schema: BrandView,
  summary: 'Brand zones (reach, entries, median dwell), equips and repeat-equip, share funnel',
  async load(ctx) {
    const [zones, items, funnel] = await Promise.all([zoneStats(ctx), itemStats(ctx), shareFunnel(ctx)]);
    const noBrandEvents = zones.length === 0 && items.length === 0 && !funnel.any_shares;
    return {
      proxies: noBrandEvents ? await proxies(ctx) : null,
      zones: zones.map((z) => ({
        zone_id: z.zone_id,
        reach: z.reach,
        entries: z.entries,
        exits: z.exits,
        median_dwell_s: roundOrNull(percentile(z.dwell, 0.5)),
      })),
      percentile_method: DWELL_PERCENTILE_METHOD,
      // An item row exists only with an equip, so players > 0.
      items: items.map((i) => ({ ...i, repeat_rate: ratio4(i.repeat_players, i.players) ?? 0 })),
      share_funnel: {
        zone_reach: { players: funnel.reached },
        equipped: { players: funnel.equipped, conversion: ratio4(funnel.equipped, funnel.reached) },
        shared: { players: funnel.shared, conversion: ratio4(funnel.shared, funnel.equipped) },
        overall_conversion: ratio4(funnel.shared, funnel.reached),
        by_share_platform: funnel.by_platform.map((p) => ({
          ...p,
          conversion: ratio4(p.players, funnel.equipped),
        })),
      },
    };
  },
};
