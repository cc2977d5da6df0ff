/** A small line of daily counts (inline SVG), its numbers in its label and on hover. */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  const width = 84;
  const height = 22;
  const top = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values.map((value, index) => `${(index * step).toFixed(1)},${(height - 2 - (value / top) * (height - 4)).toFixed(1)}`);
  const text = `${label}: ${values.join(', ')}`;
  return (
    <svg
      class="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={text}
      data-values={values.join(',')}
    >
      <title>{text}</title>
      <polyline points={points.join(' ')} fill="none" stroke="currentColor" stroke-width="1.5" />
    </svg>
  );
}
