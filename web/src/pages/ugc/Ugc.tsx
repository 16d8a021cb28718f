/**
 * The UGC catalog (public, no account needed): avatar items by category and order with a "more"
 * button that follows the API's cursor (GET /api/ugc/items), and the categories, price bands and
 * creators rising (GET /api/ugc/trends).
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, type paths, unwrap } from '../../api/client';
import { Chart } from '../../components/Chart';
import { type Column, DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/Layout';
import { Empty, QueryView } from '../../components/states';
import { formatInteger, formatRobux } from '../../lib/format';
import { categoryGrowthBars, growthLabel, type ItemList } from './ugc-chart';

type Item = ItemList['items'][number];
type Sort = 'trending' | 'new' | 'price' | 'favorites';
type Category = NonNullable<NonNullable<paths['/api/ugc/items']['get']['parameters']['query']>['category']>;

const CATEGORIES: [Category, string][] = [
  ['hat', 'Hats'],
  ['hair', 'Hair'],
  ['face_accessory', 'Face accessories'],
  ['neck', 'Neck accessories'],
  ['shoulder', 'Shoulder accessories'],
  ['front', 'Front accessories'],
  ['back', 'Back accessories'],
  ['waist', 'Waist accessories'],
  ['t_shirt', 'T-shirts'],
  ['shirt', 'Shirts'],
  ['pants', 'Pants'],
  ['jacket', 'Jackets'],
  ['sweater', 'Sweaters'],
  ['shorts', 'Shorts'],
  ['dress_skirt', 'Dresses & skirts'],
  ['shoes', 'Shoes'],
  ['classic_t_shirt', 'Classic T-shirts'],
  ['classic_shirt', 'Classic shirts'],
  ['classic_pants', 'Classic pants'],
  ['head', 'Heads'],
  ['face', 'Faces'],
  ['body_part', 'Body parts'],
  ['emote', 'Emotes'],
  ['animation', 'Animations'],
  ['bundle_body', 'Body bundles'],
  ['bundle_animation', 'Animation packs'],
  ['bundle_shoes', 'Shoe bundles'],
  ['bundle_head', 'Dynamic heads'],
  ['other', 'Other'],
];

export const itemLink = (i: Pick<Item, 'id' | 'item_type'>) =>
  `/ugc/items/${i.id}${i.item_type === 'bundle' ? '?type=bundle' : ''}`;

const columns: Column<Item>[] = [
  { key: 'name', header: 'Item', cell: (i) => <Link to={itemLink(i)}>{i.name}</Link> },
  { key: 'category', header: 'Category', cell: (i) => i.category_name },
  { key: 'creator', header: 'Creator', cell: (i) => i.creator.name },
  {
    key: 'price',
    header: 'Price',
    cell: (i) => (i.on_sale ? formatRobux(i.price) : <span className="muted">off sale</span>),
    numeric: true,
  },
  { key: 'favorites', header: 'Favourites', cell: (i) => formatInteger(i.favorites), numeric: true },
  { key: 'gain', header: 'Gained 24 h', cell: (i) => formatInteger(i.favorites_gain_24h), numeric: true },
  { key: 'score', header: 'Trending', cell: (i) => i.trending_score.toFixed(2), numeric: true },
];

function Catalog() {
  const [category, setCategory] = useState<Category | ''>('');
  const [sort, setSort] = useState<Sort>('trending');
  const query = { sort, limit: 25, ...(category ? { category } : {}) };
  const list = useInfiniteQuery({
    queryKey: ['ugc', 'items', query],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/ugc/items', {
          params: { query: { ...query, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const first = list.data?.pages[0];
  return (
    <section className="card stack" aria-labelledby="catalog-title">
      <h2 id="catalog-title">Catalog</h2>
      <fieldset className="row">
        <legend className="sr-only">Filters</legend>
        <label>
          Category{' '}
          <select value={category} onChange={(e) => setCategory(e.target.value as Category | '')}>
            <option value="">All categories</option>
            {CATEGORIES.map(([key, name]) => (
              <option key={key} value={key}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Sort by{' '}
          <select value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
            <option value="trending">Trending</option>
            <option value="new">Newest</option>
            <option value="price">Price (cheapest first)</option>
            <option value="favorites">Favourites</option>
          </select>
        </label>
      </fieldset>
      <QueryView
        query={{ ...list, data: list.data }}
        label="Loading the catalog"
        empty={(d) =>
          d.pages[0]?.items.length === 0 ? <Empty title="No item in this category yet." /> : null
        }
      >
        {(d) => (
          <>
            <DataTable
              testId="ugc-items-table"
              caption="Avatar items"
              rows={d.pages.flatMap((p) => p.items)}
              columns={columns}
              rowKey={(i) => `${i.item_type}-${i.id}`}
            />
            {list.hasNextPage ? (
              <button
                type="button"
                onClick={() => void list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
              >
                {list.isFetchingNextPage ? 'Loading…' : 'More items'}
              </button>
            ) : null}
          </>
        )}
      </QueryView>
      {first ? (
        <details>
          <summary>How items are ordered</summary>
          <p className="small">{first.method}</p>
        </details>
      ) : null}
    </section>
  );
}

function TrendsSection() {
  const trends = useQuery({
    queryKey: ['ugc', 'trends'],
    queryFn: () => unwrap(api.GET('/api/ugc/trends')),
  });
  return (
    <section className="card stack" aria-labelledby="trends-title">
      <h2 id="trends-title">Rising this week</h2>
      <QueryView query={trends} label="Loading the trends">
        {(t) => (
          <div className="stack" data-testid="ugc-trends">
            <Chart
              label="Favourites gained by category over the last 7 days against the 7 before"
              option={categoryGrowthBars(t.categories)}
              testId="ugc-category-chart"
            />
            <div className="row">
              <div>
                <h3>Price bands</h3>
                <ul data-testid="ugc-price-bands">
                  {t.price_bands.map((b) => (
                    <li key={b.band}>
                      {b.band === 'free' ? 'Free' : `R$ ${b.band}`}: {growthLabel(b.growth_percent)} (
                      {formatInteger(b.favorites_gain_7d)} favourites)
                    </li>
                  ))}
                </ul>
              </div>
              <div>
                <h3>Creators</h3>
                <ol data-testid="ugc-creators">
                  {t.creators.slice(0, 10).map((c) => (
                    <li key={`${c.creator.type}-${c.creator.id}`}>
                      {c.creator.name}: {growthLabel(c.growth_percent)} ({formatInteger(c.favorites_gain_7d)}{' '}
                      favourites)
                    </li>
                  ))}
                </ol>
              </div>
            </div>
            <details>
              <summary>How rising is measured</summary>
              <p className="small">{t.method}</p>
            </details>
          </div>
        )}
      </QueryView>
    </section>
  );
}

export function Component() {
  return (
    <div className="page">
      <PageHeader title="UGC catalog" />
      <p className="muted page-intro">
        Accessories, clothing and bundles of the avatar catalog: what is trending, new and rising.
      </p>
      <TrendsSection />
      <Catalog />
    </div>
  );
}
