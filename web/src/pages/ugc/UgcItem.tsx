/** One avatar item (public): its figures and its daily price and favourites (GET /api/ugc/items/{id}). */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { Chart } from '../../components/Chart';
import { PageHeader } from '../../components/Layout';
import { QueryView } from '../../components/states';
import { Time } from '../../components/Time';
import { formatInteger, formatRobux } from '../../lib/format';
import { priceFavoritesChart } from './ugc-chart';

export function Component() {
  const { id } = useParams();
  const [search] = useSearchParams();
  const type = search.get('type') === 'bundle' ? 'bundle' : 'asset';
  const itemId = Number(id);
  const item = useQuery({
    queryKey: ['ugc', 'item', itemId, type],
    queryFn: () =>
      unwrap(api.GET('/api/ugc/items/{id}', { params: { path: { id: itemId }, query: { type, days: 90 } } })),
  });
  return (
    <div className="page">
      <QueryView query={item} label="Loading the item">
        {(d) => (
          <>
            <PageHeader title={d.item.name} />
            <p className="muted page-intro">
              <Link to="/ugc">UGC catalog</Link> · {d.item.category_name} · by {d.item.creator.name} (
              {d.item.creator.type.toLowerCase()})
            </p>
            <section className="card stack" aria-labelledby="item-figures">
              <h2 id="item-figures">Now</h2>
              <dl className="row" data-testid="ugc-item-figures">
                <div>
                  <dt>Price</dt>
                  <dd>{d.item.on_sale ? formatRobux(d.item.price) : 'Off sale'}</dd>
                </div>
                <div>
                  <dt>Favourites</dt>
                  <dd>{formatInteger(d.item.favorites)}</dd>
                </div>
                <div>
                  <dt>Gained in 24 h / 7 days</dt>
                  <dd>
                    {formatInteger(d.item.favorites_gain_24h)} / {formatInteger(d.item.favorites_gain_7d)}
                  </dd>
                </div>
                <div>
                  <dt>Trending score</dt>
                  <dd>{d.item.trending_score.toFixed(3)}</dd>
                </div>
                <div>
                  <dt>Listed</dt>
                  <dd>
                    <Time at={d.item.listed_at} />
                  </dd>
                </div>
              </dl>
            </section>
            <section className="card stack" aria-labelledby="item-history">
              <h2 id="item-history">Price and favourites, last 90 days</h2>
              <Chart
                label="Daily price in Robux and favourites of the item"
                option={priceFavoritesChart(d)}
                testId="ugc-item-chart"
              />
            </section>
            <details className="card">
              <summary>How these figures are measured</summary>
              <p className="small">{d.method}</p>
            </details>
          </>
        )}
      </QueryView>
    </div>
  );
}
