// The latency histogram picture of the report: one panel per series (a target's every response
// latency in ms), each with bars of equal width up to its own 99.9th percentile, and the share of
// responses beyond that said in the panel's title.

export interface Series {
  label: string;
  samples: number[];
}

const WIDTH = 720;
const PANEL_HEIGHT = 200;
const MARGIN = { left: 56, right: 16, top: 28, bottom: 36 };
const BARS = 60;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** A step of 1, 2 or 5 × 10^k that cuts `span` into about `parts`. */
function niceStep(span: number, parts: number): number {
  const raw = span / parts;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  return step ?? 10 * power;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

export function histogramSvg(title: string, series: Series[]): string {
  const sorted = series.map((s) => [...s.samples].sort((a, b) => a - b));
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = PANEL_HEIGHT - MARGIN.top - MARGIN.bottom;
  const height = 30 + series.length * PANEL_HEIGHT;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${WIDTH / 2}" y="18" text-anchor="middle" font-size="14" font-weight="bold">${escape(title)}</text>`,
  ];
  series.forEach((s, index) => {
    const samples = sorted[index] as number[];
    const width = niceStep(Math.max(percentile(samples, 0.999), 1), BARS);
    const buckets = Math.ceil(Math.max(percentile(samples, 0.999), 1) / width);
    const counts = new Array<number>(buckets).fill(0);
    let beyond = 0;
    for (const ms of samples) {
      const bucket = Math.floor(ms / width);
      if (bucket < buckets) counts[bucket] = (counts[bucket] ?? 0) + 1;
      else beyond += 1;
    }
    const shares = counts.map((c) => (samples.length > 0 ? c / samples.length : 0));
    const peak = Math.max(...shares, 1e-9);
    const yStep = niceStep(peak * 100, 4);
    const y0 = 30 + index * PANEL_HEIGHT;
    const x = (ms: number) => MARGIN.left + (ms / (buckets * width)) * plotWidth;
    const y = (share: number) => y0 + MARGIN.top + plotHeight - (share / ((Math.ceil((peak * 100) / yStep) * yStep) / 100)) * plotHeight;
    const summary =
      `${s.label}: ${samples.length.toLocaleString('en')} responses, p50 ${fmt(percentile(samples, 0.5))} ms, p99 ${fmt(percentile(samples, 0.99))} ms` +
      (beyond > 0 ? `, ${((beyond / samples.length) * 100).toFixed(2)}% beyond ${fmt(buckets * width)} ms` : '');
    parts.push(`<text x="${MARGIN.left}" y="${y0 + 16}" font-size="12">${escape(summary)}</text>`);
    for (let share = 0; share <= Math.ceil((peak * 100) / yStep) * yStep + 1e-9; share += yStep) {
      parts.push(
        `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(share / 100).toFixed(1)}" y2="${y(share / 100).toFixed(1)}" stroke="#e5e5e5"/>`,
      );
      parts.push(`<text x="${MARGIN.left - 6}" y="${(y(share / 100) + 4).toFixed(1)}" text-anchor="end">${fmt(share)}%</text>`);
    }
    counts.forEach((_, bucket) => {
      const share = shares[bucket] ?? 0;
      if (share === 0) return;
      parts.push(
        `<rect x="${x(bucket * width).toFixed(1)}" y="${y(share).toFixed(1)}" width="${Math.max(plotWidth / buckets - 1, 1).toFixed(1)}" height="${(y(0) - y(share)).toFixed(1)}" fill="#3b6fb6"/>`,
      );
    });
    const tickStep = niceStep(buckets * width, 8);
    for (let ms = 0; ms <= buckets * width + 1e-9; ms += tickStep) {
      parts.push(`<text x="${x(ms).toFixed(1)}" y="${y(0) + 14}" text-anchor="middle">${fmt(ms)}</text>`);
    }
    parts.push(`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(0)}" y2="${y(0)}" stroke="#333"/>`);
    parts.push(`<text x="${WIDTH - MARGIN.right}" y="${y(0) + 28}" text-anchor="end">latency, ms (bars of ${fmt(width)} ms; share of responses)</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
