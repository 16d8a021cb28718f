import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRobloxCatalogSource, DETAILS_BATCH } from './catalog-source.js';
import { createRobloxClient } from './client.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/fixtures/roblox-catalog/${name}`, import.meta.url), 'utf8');
const DETAILS = fixture('catalog.roblox.com__v1_catalog_items_details__openblox.json');
const SEARCH = fixture('catalog.roblox.com__v1_search_items__docs-shape.json');

interface Seen {
  method: string;
  url: string;
  token: string | undefined;
  body: string;
}

/** A local stand-in for catalog.roblox.com: replays the recorded bodies, asks POSTs for a CSRF token first. */
describe('the Roblox catalog source', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const token = req.headers['x-csrf-token'] as string | undefined;
        seen.push({ method: req.method!, url: req.url!, token, body });
        res.setHeader('content-type', 'application/json');
        if (req.url!.startsWith('/v1/search/items')) {
          // The second page ends the search.
          res.end(req.url!.includes('Cursor=') ? JSON.stringify({ data: [], nextPageCursor: null }) : SEARCH);
        } else if (req.url === '/v1/catalog/items/details' && token !== 'tok-1') {
          res.statusCode = 403;
          res.setHeader('x-csrf-token', 'tok-1');
          res.end(JSON.stringify({ errors: [{ code: 0, message: 'Token Validation Failed' }] }));
        } else res.end(DETAILS);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const source = () =>
    createRobloxCatalogSource({
      catalogBaseUrl: base,
      discoveryQueries: ['Category=1&SortType=3'],
      client: createRobloxClient({ sleep: async () => {}, maxAttempts: 3 }),
    });

  it('discovers refs by paging the search with its cursor', async () => {
    seen.length = 0;
    const refs = await source().discover(new Date());
    expect(refs).toEqual([
      { itemType: 'Asset', id: 2608538559 },
      { itemType: 'Bundle', id: 429 },
    ]);
    expect(seen.map((s) => s.url)).toEqual([
      '/v1/search/items?Category=1&SortType=3&Limit=120',
      '/v1/search/items?Category=1&SortType=3&Limit=120&Cursor=2_1_5a3b9f0e6f1c2d4e8a7b6c5d4e3f2a1b',
    ]);
  });

  it('reads details in batches of 120 with the CSRF token the first answer hands out', async () => {
    seen.length = 0;
    const refs = [
      { itemType: 'Bundle' as const, id: 429 },
      { itemType: 'Asset' as const, id: 2608538559 },
      ...Array.from({ length: DETAILS_BATCH }, (_, i) => ({ itemType: 'Asset' as const, id: 10 + i })),
    ];
    const got = await source().getItems(refs, new Date());
    expect([...got.items.keys()]).toEqual(['Bundle:429', 'Asset:2608538559']);
    expect(got.items.get('Bundle:429')).toMatchObject({ price: 300, favorites: 520324 });
    // The ids the answer left out are gaps, not zeros.
    expect(got.failed).toHaveLength(DETAILS_BATCH);
    const posts = seen.filter((s) => s.method === 'POST');
    const withToken = posts.filter((s) => s.token === 'tok-1');
    expect(withToken).toHaveLength(2);
    const batches = withToken.map((s) => JSON.parse(s.body).items).sort((a, b) => b.length - a.length);
    expect(batches.map((b) => b.length)).toEqual([DETAILS_BATCH, 2]);
    expect(batches[0]![0]).toEqual({ itemType: 'Bundle', id: 429 });
  });

  it('turns a batch it cannot read into gaps', async () => {
    const broken = createRobloxCatalogSource({
      catalogBaseUrl: 'http://127.0.0.1:1',
      client: createRobloxClient({ sleep: async () => {}, maxAttempts: 1, timeoutMs: 500 }),
    });
    const got = await broken.getItems([{ itemType: 'Asset', id: 1 }], new Date());
    expect(got.items.size).toBe(0);
    expect(got.failed).toEqual([{ itemType: 'Asset', id: 1 }]);
    await broken.close();
  });
});
