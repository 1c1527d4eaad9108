// The console's charts: Chart.js with only the parts the console draws (bars and lines on a
// category axis of days or names, a linear axis of counts, the legend and tooltips), registered
// once, in the console's type and colours. Chart.js draws on a canvas and evaluates no code, so it
// runs under the console's Content-Security-Policy; it sets the canvas's size as a style attribute,
// which the policy allows.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
  type ChartData,
} from 'chart.js';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);
Chart.defaults.font.family = getComputedStyle(document.documentElement).getPropertyValue('--sl-font-sans').trim() || 'system-ui, sans-serif';
Chart.defaults.color = '#505a6e';
Chart.defaults.animation = false;

/** Series colours, distinct from each other and at least 3:1 against white (WCAG's graphics contrast). */
export const PALETTE = ['#3b5bdb', '#e8590c', '#0c8599', '#9c36b5', '#2b8a3e', '#c2255c', '#a16207', '#495057', '#1971c2', '#5f3dc4'];
export const STATUS_COLOURS = { delivered: '#2b8a3e', failed: '#c92a2a', pending: '#a16207' } as const;

export type ChartKind = 'bar' | 'line';

export interface ChartSpec {
  type: ChartKind;
  data: ChartData<ChartKind, number[], string>;
  /** Bars side by side along a vertical axis of names. */
  horizontal?: boolean;
  stacked?: boolean;
  legend?: boolean;
  /** The tooltip's title for the label at an index (a day's full date, say); the label otherwise. */
  tooltipTitle?: (index: number) => string;
}

/** Draws `spec` on `canvas`, or redraws the chart already there with the new data. */
export function drawChart(canvas: HTMLCanvasElement, spec: ChartSpec, existing: Chart | undefined): Chart {
  const configuration = configure(spec);
  if (existing !== undefined && (existing.config as { type: string }).type === spec.type) {
    existing.options = configuration.options ?? {};
    existing.data = configuration.data;
    existing.update();
    return existing;
  }
  existing?.destroy();
  return new Chart(canvas, configuration);
}

function configure(spec: ChartSpec): ChartConfiguration<ChartKind, number[], string> {
  const counts = {
    beginAtZero: true,
    // All zeros (an empty range) still gets a readable axis: 0 to 4 in whole steps.
    suggestedMax: 4,
    stacked: spec.stacked ?? false,
    ticks: { precision: 0 },
    grid: { color: '#e9ecf3' },
  };
  const labels = { stacked: spec.stacked ?? false, grid: { display: false }, ticks: { autoSkipPadding: 12, maxRotation: 0 } };
  return {
    type: spec.type,
    data: spec.data,
    options: {
      responsive: true,
      maintainAspectRatio: false,
      indexAxis: spec.horizontal === true ? 'y' : 'x',
      interaction: { mode: 'index', intersect: false },
      scales: spec.horizontal === true ? { x: counts, y: labels } : { x: labels, y: counts },
      plugins: {
        legend: { display: spec.legend ?? false, position: 'bottom', labels: { boxWidth: 12, boxHeight: 12 } },
        tooltip: { callbacks: { title: (items) => items.map((item) => spec.tooltipTitle?.(item.dataIndex) ?? item.label) } },
      },
    },
  };
}

export type { Chart };
