/**
 * A sortable table: click (or Enter on) a column header to sort by it, again to reverse. Headers
 * carry aria-sort. Wide tables scroll sideways inside their card on a phone.
 */
import { type ReactNode, useMemo, useState } from 'react';

export interface Column<T> {
  key: string;
  header: string;
  /** The cell's content. */
  cell: (row: T) => ReactNode;
  /** The value sorted on; columns without one are not sortable. */
  sort?: (row: T) => number | string | null;
  numeric?: boolean;
  /** A short explanation on hover of the header. */
  title?: string;
}

export function sortRows<T>(rows: T[], column: Column<T> | undefined, dir: 'asc' | 'desc'): T[] {
  if (!column?.sort) return rows;
  const get = column.sort;
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = get(a);
    const y = get(b);
    if (x == null && y == null) return 0;
    if (x == null) return 1; // unknowns last either way
    if (y == null) return -1;
    return (x < y ? -1 : x > y ? 1 : 0) * sign;
  });
}

export function DataTable<T>({
  rows,
  columns,
  rowKey,
  caption,
  initialSort,
  testId,
}: {
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  caption: string;
  initialSort?: { key: string; dir: 'asc' | 'desc' };
  testId?: string;
}) {
  const [sort, setSort] = useState(initialSort ?? null);
  const sorted = useMemo(
    () =>
      sort
        ? sortRows(
            rows,
            columns.find((c) => c.key === sort.key),
            sort.dir,
          )
        : rows,
    [rows, columns, sort],
  );
  const toggle = (key: string) =>
    setSort((s) => (s?.key === key ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: 'desc' }));
  return (
    // A region of its own, focusable, so keyboard users can scroll a table wider than the screen.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1, axe scrollable-region-focusable).
    <section className="table-scroll" aria-label={caption} tabIndex={0}>
      <table className="data-table" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const active = sort?.key === c.key;
              const ariaSort = active ? (sort?.dir === 'asc' ? 'ascending' : 'descending') : undefined;
              return (
                <th
                  key={c.key}
                  scope="col"
                  className={c.numeric ? 'num' : undefined}
                  aria-sort={ariaSort}
                  title={c.title}
                >
                  {c.sort ? (
                    <button type="button" className="sort" onClick={() => toggle(c.key)}>
                      {c.header}
                      <span aria-hidden="true">{active ? (sort?.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                    </button>
                  ) : (
                    c.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.key} className={c.numeric ? 'num' : undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
