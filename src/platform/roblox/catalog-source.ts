/**
 * The public Roblox catalog web APIs as a CatalogSource. Discovery reads a few pages of the
 * catalog search (newest and most favourited this week); item details come from the batch
 * details endpoint, 120 refs per request (its documented maximum), the batches through the same
 * HTTP client as the games source (concurrency cap, timeouts, retries, the CSRF token its POSTs
 * need). A batch that fails is a gap for each of its refs. The caller's signal (the collector's
 * time budget) ends every read still pending. History cannot be replayed from these APIs.
 */
import type { CatalogFetch, CatalogRef, CatalogSource } from '../catalog.js';
import { mapCatalogDetails, mapSearchPage } from './catalog-mapping.js';
import { createRobloxClient, type Fetched, type RobloxClient, type RobloxClientOptions } from './client.js';

/** Refs per details request: the endpoint's documented maximum. */
export const DETAILS_BATCH = 120;
/** Items per search page: the largest page size the search accepts. */
export const SEARCH_PAGE_SIZE = 120;
/** The searches discovery pages through: recently updated (new items) and most favourited this week. */
export const DISCOVERY_QUERIES = [
  'Category=1&SortType=3',
  'Category=1&SortType=1&SortAggregation=3',
] as const;

export interface RobloxCatalogOptions extends RobloxClientOptions {
  /** Default https://catalog.roblox.com (tests point it at a local server). */
  catalogBaseUrl?: string;
  discoveryQueries?: readonly string[];
  /** Pages read per search on each discovery. */
  discoveryPages?: number;
  log?: { warn(obj: Record<string, unknown>, msg: string): void };
  client?: RobloxClient;
}

export function createRobloxCatalogSource(options: RobloxCatalogOptions = {}): CatalogSource & {
  close(): Promise<void>;
} {
  const client = options.client ?? createRobloxClient(options);
  const base = new URL(options.catalogBaseUrl ?? 'https://catalog.roblox.com');
  const queries = options.discoveryQueries ?? DISCOVERY_QUERIES;
  const pages = options.discoveryPages ?? 5;

  const failedRead = (what: string, res: Fetched & { ok: false }) => {
    if (res.reason !== 'aborted') {
      options.log?.warn(
        { what, reason: res.reason, status: res.status, detail: res.detail },
        'roblox catalog request failed',
      );
    }
  };

  return {
    name: 'roblox',
    replaysPast: false,
    async discover(_now, signal) {
      const out: CatalogRef[] = [];
      for (const query of queries) {
        let cursor: string | null = null;
        for (let page = 0; page < pages; page++) {
          const url = new URL('/v1/search/items', base);
          url.search = `?${query}&Limit=${SEARCH_PAGE_SIZE}${cursor ? `&Cursor=${encodeURIComponent(cursor)}` : ''}`;
          const res = await client.getJson(url, signal ? { signal } : {});
          if (!res.ok) {
            failedRead('/v1/search/items', res);
            break;
          }
          const mapped = mapSearchPage(res.body);
          if (!mapped) break;
          out.push(...mapped.refs);
          cursor = mapped.nextCursor;
          if (!cursor) break;
        }
      }
      return out;
    },
    async getItems(refs, _now, signal): Promise<CatalogFetch> {
      const batches: CatalogRef[][] = [];
      for (let i = 0; i < refs.length; i += DETAILS_BATCH) batches.push(refs.slice(i, i + DETAILS_BATCH));
      const parts = await Promise.all(
        batches.map(async (batch) => {
          const res = await client.postJson(
            new URL('/v1/catalog/items/details', base),
            { items: batch.map((r) => ({ itemType: r.itemType, id: r.id })) },
            signal ? { signal } : {},
          );
          if (!res.ok) {
            failedRead('/v1/catalog/items/details', res);
            return { items: new Map(), failed: batch } satisfies CatalogFetch;
          }
          return mapCatalogDetails(res.body, batch);
        }),
      );
      const items: CatalogFetch['items'] = new Map();
      const failed: CatalogRef[] = [];
      for (const p of parts) {
        for (const [k, v] of p.items) items.set(k, v);
        failed.push(...p.failed);
      }
      return { items, failed };
    },
    close: () => client.close(),
  };
}
