import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mapCatalogDetails, mapCatalogItem, mapSearchPage, saleOf } from './catalog-mapping.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../test/fixtures/roblox-catalog/${name}`, import.meta.url), 'utf8'));
const DETAILS = fixture('catalog.roblox.com__v1_catalog_items_details__openblox.json');
const SEARCH = fixture('catalog.roblox.com__v1_search_items__docs-shape.json');

describe('mapping the Roblox catalog responses', () => {
  it('maps the recorded batch details: a bundle on sale and an asset off sale', () => {
    const asked = [
      { itemType: 'Bundle', id: 429 },
      { itemType: 'Asset', id: 2608538559 },
    ] as const;
    const { items, failed } = mapCatalogDetails(DETAILS, asked);
    expect(failed).toEqual([]);
    expect(items.get('Bundle:429')).toEqual({
      itemType: 'Bundle',
      id: 429,
      name: 'Magma Fiend',
      category: 'bundle_body',
      creator: { id: 1, name: 'Roblox', type: 'User' },
      price: 300,
      onSale: true,
      favorites: 520324,
      created: null,
    });
    expect(items.get('Asset:2608538559')).toEqual({
      itemType: 'Asset',
      id: 2608538559,
      name: 'Magma Fiend - Right Leg',
      category: 'body_part',
      creator: { id: 1, name: 'Roblox', type: 'User' },
      price: null,
      onSale: false,
      favorites: 9887,
      created: null,
    });
  });

  it('fails every asked ref the answer leaves out or gives malformed, and ignores refs nobody asked for', () => {
    const body = structuredClone(DETAILS) as { data: Record<string, unknown>[] };
    body.data[0]!.favoriteCount = -1;
    const { items, failed } = mapCatalogDetails(body, [
      { itemType: 'Bundle', id: 429 },
      { itemType: 'Asset', id: 5 },
    ]);
    expect(items.size).toBe(0);
    expect(failed).toEqual([
      { itemType: 'Bundle', id: 429 },
      { itemType: 'Asset', id: 5 },
    ]);
    expect(mapCatalogDetails({ errors: [{ code: 0 }] }, [{ itemType: 'Asset', id: 1 }]).failed).toHaveLength(
      1,
    );
  });

  it('reads free, priced and off-sale states and refuses an on-sale item without a price', () => {
    expect(saleOf({ priceStatus: 'Free' })).toEqual({ price: 0, onSale: true });
    expect(saleOf({ price: 75 })).toEqual({ price: 75, onSale: true });
    expect(saleOf({ isOffSale: true, price: 75 })).toEqual({ price: null, onSale: false });
    expect(saleOf({ priceStatus: 'Off Sale' })).toEqual({ price: null, onSale: false });
    expect(saleOf({})).toBeUndefined();
    const asset = (DETAILS as { data: unknown[] }).data[1] as Record<string, unknown>;
    expect(mapCatalogItem({ ...asset, creatorType: 'Robot' })).toBeUndefined();
    expect(mapCatalogItem({ ...asset, assetType: 8 })?.category).toBe('hat');
    expect(mapCatalogItem({ ...asset, assetType: 9999 })?.category).toBe('other');
    expect(mapCatalogItem({ ...asset, itemCreatedUtc: '2024-05-01T10:00:00Z' })?.created).toEqual(
      new Date('2024-05-01T10:00:00Z'),
    );
  });

  it('maps a search page to refs and its next cursor', () => {
    expect(mapSearchPage(SEARCH)).toEqual({
      refs: [
        { itemType: 'Asset', id: 2608538559 },
        { itemType: 'Bundle', id: 429 },
      ],
      nextCursor: '2_1_5a3b9f0e6f1c2d4e8a7b6c5d4e3f2a1b',
    });
    expect(mapSearchPage({ data: [{ id: 'x' }], nextPageCursor: null })).toEqual({
      refs: [],
      nextCursor: null,
    });
    expect(mapSearchPage({ nope: true })).toBeUndefined();
  });
});
