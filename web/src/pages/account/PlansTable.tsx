/**
 * What each plan unlocks, side by side (GET /api/plans: the server's own entitlements, overrides
 * included), the viewer's plan highlighted. Shared by the account and admin pages.
 */
import { useEffect, useRef } from 'react';
import { Empty, QueryView } from '../../components/states';
import { usePlans } from '../../lib/session';
import { featureRows, type PlanInfo } from './plan-rows';

export function PlansTable({ current, caption }: { current?: string | undefined; caption: string }) {
  const plans = usePlans();
  return (
    <QueryView
      query={plans}
      label="Loading the plans"
      empty={(d) => (d.plans.length === 0 ? <Empty title="No plans are configured." /> : null)}
    >
      {(d) => <Comparison plans={d.plans} current={current} caption={caption} />}
    </QueryView>
  );
}

function Comparison({
  plans,
  current,
  caption,
}: {
  plans: PlanInfo[];
  current: string | undefined;
  caption: string;
}) {
  const rows = featureRows(plans);
  const mark = (name: string) => (name === current ? 'plan-current' : undefined);
  const scroller = useRef<HTMLElement>(null);
  // On a phone only the first plans fit: bring the viewer's own plan into view beside the features.
  useEffect(() => {
    const box = scroller.current;
    const th = box?.querySelector<HTMLElement>(`th[data-plan="${current}"]`);
    const features = box?.querySelector<HTMLElement>('th.plan-sticky');
    if (!box || !th || !features) return;
    if (th.offsetLeft + th.offsetWidth > box.clientWidth)
      box.scrollLeft = th.offsetLeft - features.offsetWidth;
  }, [current]);
  return (
    // Focusable, so a keyboard can scroll the table sideways on a phone.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section ref={scroller} className="table-scroll" tabIndex={0} aria-label={caption}>
      <table className="data-table plans-table" data-testid="plans-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="plan-sticky">
              Feature
            </th>
            {plans.map((p) => (
              <th
                key={p.name}
                scope="col"
                className={mark(p.name)}
                aria-current={p.name === current ? 'true' : undefined}
                title={p.summary}
                data-plan={p.name}
              >
                <span className="plan-name">{p.name}</span>
                {p.name === current ? <span className="badge plan-yours">Your plan</span> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <th scope="row" className="wrap plan-feature plan-sticky">
                {r.feature}
                <span className="muted small plan-help">{r.help}</span>
              </th>
              {r.cells.map((c, i) => {
                const plan = plans[i]!.name;
                const classes = [mark(plan), c.none ? 'muted' : undefined].filter(Boolean).join(' ');
                return (
                  <td key={plan} className={classes || undefined}>
                    {c.text}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
