import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: number[];
  color: string;
  /** The previous period is drawn dashed beside the current one. */
  dashed?: boolean;
}

/** Daily counts over a range of days (uPlot); the x axis is the day of the current range. */
export function DailyChart({ days, series, title }: { days: string[]; series: ChartSeries[]; title: string }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (element === null) return;
    const chart = new uPlot(
      {
        title,
        width: Math.max(320, Math.min(element.clientWidth || 960, 1100)),
        height: 300,
        scales: { x: { time: false } },
        axes: [
          { values: (_chart, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? (days[tick] ?? '').slice(5) : '')) },
          { values: (_chart, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? String(tick) : '')) },
        ],
        series: [
          { label: 'day', value: (_chart, index) => (index === null ? '—' : (days[index] ?? '—')) },
          ...series.map((line) => ({ label: line.label, stroke: line.color, width: 2, dash: line.dashed ? [6, 4] : undefined })),
        ],
      },
      [days.map((_day, index) => index), ...series.map((line) => line.values)],
      element,
    );
    return () => chart.destroy();
  }, [days.join(), JSON.stringify(series)]);
  return <div ref={holder} class="chart" />;
}
