/**
 * The one chart component: Apache ECharts, loaded on first use (its own chunk, never in the
 * initial bundle), themed after the system's light or dark mode, resized with its box. The canvas
 * is an image to assistive technology, described by `label`; `summary` is the same data as text.
 */
import { type CSSProperties, useEffect, useRef, useState } from 'react';
import type { EChartsCoreOption } from './echarts';

type ECharts = Awaited<ReturnType<typeof import('./echarts')['loadECharts']>>;
type Instance = ReturnType<ECharts['init']>;

function prefersDark(): boolean {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches;
}

export function Chart({
  option,
  label,
  height = 280,
  style,
  testId,
}: {
  option: EChartsCoreOption;
  label: string;
  height?: number;
  style?: CSSProperties;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<Instance | null>(null);
  const [dark, setDark] = useState(prefersDark);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    const onChange = () => setDark(media.matches);
    media?.addEventListener('change', onChange);
    return () => media?.removeEventListener('change', onChange);
  }, []);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void import('./echarts').then(({ loadECharts }) => {
      const echarts = loadECharts();
      if (disposed || !box.current) return;
      const instance = echarts.init(box.current, dark ? 'dark' : undefined, { renderer: 'canvas' });
      chart.current = instance;
      observer = new ResizeObserver(() => instance.resize());
      observer.observe(box.current);
      setReady(true);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
      setReady(false);
    };
  }, [dark]);

  useEffect(() => {
    if (!ready || !chart.current) return;
    chart.current.setOption({ backgroundColor: 'transparent', aria: { enabled: true }, ...option }, true);
    box.current?.setAttribute('data-drawn', 'true');
  }, [option, ready]);

  return (
    <div
      ref={box}
      className="chart"
      role="img"
      aria-label={label}
      data-testid={testId}
      style={{ height, width: '100%', ...style }}
    />
  );
}
