/** ECharts with only the charts and components the app draws (tree-shaken; its own chunk). */
import { BarChart, HeatmapChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  AriaComponent,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { LabelLayout } from 'echarts/features';
import { CanvasRenderer } from 'echarts/renderers';

export type { EChartsCoreOption } from 'echarts/core';

let registered = false;
export function loadECharts() {
  if (!registered) {
    echarts.use([
      LineChart,
      BarChart,
      ScatterChart,
      HeatmapChart,
      GridComponent,
      TooltipComponent,
      LegendComponent,
      VisualMapComponent,
      DataZoomComponent,
      MarkLineComponent,
      MarkAreaComponent,
      AriaComponent,
      LabelLayout,
      CanvasRenderer,
    ]);
    registered = true;
  }
  return echarts;
}
