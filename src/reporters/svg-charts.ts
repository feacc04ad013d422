/** Inline SVG charts of a load run: latency by percentile and throughput over time. No scripts, no external assets. */
import { escapeHtml } from './html.js';

/** What the charts draw; the load run's results are mapped to this shape. */
export interface LoadChartData {
  /** Latency at each percentile, e.g. {p: 99, ms: 41.2}. */
  percentiles: Array<{ p: number; ms: number }>;
  /** Requests per second at each moment, t in seconds from the start. */
  throughput: Array<{ t: number; rps: number }>;
  /** The trend check's first and last windows of the judged stage, when it measured them. */
  windows?: ChartWindow[];
}

/** One window of the trend check: where it lies on the throughput chart's time axis (s from the start) and what it measured. */
export interface ChartWindow {
  name: 'first' | 'last';
  from: number;
  to: number;
  rps: number;
  latency: { p50: number; p90: number; p99: number };
}

/** How each window is drawn: marked areas and figures in its own colour, so the two read apart from the series. */
const WINDOW_COLOURS: Record<ChartWindow['name'], string> = { first: '#2e7d32', last: '#e65100' };

const LATENCY_TITLE = 'Latency by percentile';
const THROUGHPUT_TITLE = 'Throughput over time';

/** The charts' titles with their units, as a page captions them (each SVG names itself by the title alone). */
export const CHART_CAPTIONS = {
  latency: `${LATENCY_TITLE} (ms)`,
  throughput: `${THROUGHPUT_TITLE} (responses per second)`,
} as const;

const WIDTH = 560;
const HEIGHT = 240;
const PAD = { left: 56, right: 16, top: 16, bottom: 40 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The points of a series as [x, y] pairs; undefined unless every item has finite numbers under both keys. */
function pointsOf(value: unknown, x: string, y: string): Array<[number, number]> | undefined {
  if (!Array.isArray(value)) return undefined;
  const points: Array<[number, number]> = [];
  for (const item of value as unknown[]) {
    const record = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    const [px, py] = [record[x], record[y]];
    if (!isFiniteNumber(px) || !isFiniteNumber(py)) return undefined;
    points.push([px, py]);
  }
  return points;
}

/** A record's field, when the value is an object. */
function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** Seconds before the judged stage on the time axis: the stages before it (a ramp's), as the throughput series lays them end to end. */
function judgedStageStart(section: Record<string, unknown>): number {
  const stages = Array.isArray(section['stages']) ? (section['stages'] as unknown[]) : [];
  const judged = stages.findIndex((stage) => field(stage, 'rate') === section['judgedRate']);
  const before = section['judgedRate'] === undefined || judged === -1 ? 0 : judged;
  return stages.slice(0, before).reduce((sum: number, stage) => {
    const seconds = field(field(stage, 'metrics'), 'durationSeconds');
    return sum + (isFiniteNumber(seconds) ? seconds : 0);
  }, 0);
}

/** The trend windows of a load section in the chart shape; undefined unless both are there with finite figures. */
function chartWindows(section: Record<string, unknown>): ChartWindow[] | undefined {
  const windows = field(section['metrics'], 'windows');
  const start = judgedStageStart(section);
  const shaped = (['first', 'last'] as const).map((name) => {
    const w = field(windows, name);
    const latency = field(w, 'latency');
    const numbers = [
      field(w, 'from'),
      field(w, 'to'),
      field(w, 'rps'),
      field(latency, 'p50'),
      field(latency, 'p90'),
      field(latency, 'p99'),
    ];
    if (!numbers.every(isFiniteNumber)) return undefined;
    const [from, to, rps, p50, p90, p99] = numbers as number[];
    return {
      name,
      from: start + (from as number),
      to: start + (to as number),
      rps: rps as number,
      latency: { p50, p90, p99 },
    } as ChartWindow;
  });
  return shaped.every((w) => w !== undefined) ? (shaped as ChartWindow[]) : undefined;
}

/** Reads chart data out of a report's `load` section; undefined when it does not hold both series in the chart shape. */
export function loadChartData(load: unknown): LoadChartData | undefined {
  if (typeof load !== 'object' || load === null) return undefined;
  const section = load as Record<string, unknown>;
  const percentiles = pointsOf(section['percentiles'], 'p', 'ms');
  const throughput = pointsOf(section['throughput'], 't', 'rps');
  if (percentiles === undefined || throughput === undefined) return undefined;
  const windows = chartWindows(section);
  return {
    percentiles: percentiles.map(([p, ms]) => ({ p, ms })),
    throughput: throughput.map(([t, rps]) => ({ t, rps })),
    ...(windows === undefined ? {} : { windows }),
  };
}

/** The windows' names and spans, in their colours, along the top of a chart. */
function windowLegend(windows: readonly ChartWindow[]): string {
  return windows
    .map(
      (w, i) =>
        `<text x="${PAD.left + 8 + i * 170}" y="${PAD.top + 10}" fill="${WINDOW_COLOURS[w.name]}" class="value">▬ ${w.name} window ` +
        `${label(w.from)}–${label(w.to)} s</text>`,
    )
    .join('');
}

/** A round tick step (1, 2, 2.5 or 5 times a power of ten) giving about five ticks, and the axis top it reaches. */
export function niceScale(max: number): { top: number; step: number } {
  if (!(max > 0)) return { top: 1, step: 0.25 };
  const rough = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((v) => v >= rough) ?? 10 * magnitude;
  return { top: Math.ceil(max / step) * step, step };
}

function label(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1).replace(/\.?0+$/, '');
}

function frame(title: string, yLabel: string, top: number, step: number, body: string, xLabel: string): string {
  const ticks: string[] = [];
  for (let v = 0; v <= top + step / 2; v += step) {
    const y = PAD.top + PLOT_H - (v / top) * PLOT_H;
    ticks.push(
      `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" class="grid"/><text ` +
        `x="${PAD.left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end">${label(v)}</text>`,
    );
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(title)}" class="chart">`,
    `<title>${escapeHtml(title)}</title>`,
    ...ticks,
    body,
    `<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${PAD.top + PLOT_H}" y2="${PAD.top + PLOT_H}" class="axis"/>`,
    `<text x="${PAD.left + PLOT_W / 2}" y="${HEIGHT - 4}" text-anchor="middle" class="axis-label">${escapeHtml(xLabel)}</text>`,
    `<text x="14" y="${PAD.top + PLOT_H / 2}" text-anchor="middle" class="axis-label" transform="rotate(-90 14 ` +
      `${PAD.top + PLOT_H / 2})">${escapeHtml(yLabel)}</text>`,
    '</svg>',
  ].join('\n');
}

/** Latency at each percentile as bars, labelled with their values; the trend windows' p50, p90 and p99 marked across their bars. */
export function latencyPercentileChart(percentiles: LoadChartData['percentiles'], windows: readonly ChartWindow[] = []): string {
  const points = [...percentiles].sort((a, b) => a.p - b.p);
  const windowMs = windows.flatMap((w) => [w.latency.p50, w.latency.p90, w.latency.p99]);
  const { top, step } = niceScale(Math.max(0, ...points.map((q) => q.ms), ...windowMs));
  const slot = PLOT_W / Math.max(1, points.length);
  const bars = points.map((q, i) => {
    const h = (Math.max(0, q.ms) / top) * PLOT_H;
    const x = PAD.left + i * slot + slot * 0.2;
    const y = PAD.top + PLOT_H - h;
    return [
      `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(slot * 0.6).toFixed(1)}" height="${h.toFixed(1)}" class="bar"/>`,
      `<text x="${(x + slot * 0.3).toFixed(1)}" y="${(y - 4).toFixed(1)}" text-anchor="middle" class="value">${label(q.ms)}</text>`,
      `<text x="${(x + slot * 0.3).toFixed(1)}" y="${PAD.top + PLOT_H + 16}" text-anchor="middle">p${String(q.p)}</text>`,
    ].join('');
  });
  for (const [i, q] of points.entries()) {
    const p = q.p === 50 ? 'p50' : q.p === 90 ? 'p90' : q.p === 99 ? 'p99' : undefined;
    if (p === undefined) continue;
    const x = PAD.left + i * slot + slot * 0.1;
    for (const w of windows) {
      const y = PAD.top + PLOT_H - (Math.max(0, w.latency[p]) / top) * PLOT_H;
      bars.push(
        `<line x1="${x.toFixed(1)}" x2="${(x + slot * 0.8).toFixed(1)}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" ` +
          `stroke="${WINDOW_COLOURS[w.name]}" stroke-width="3"><title>${w.name} window ${p}: ${label(w.latency[p])} ms</title></line>`,
      );
    }
  }
  if (windows.length > 0) bars.push(windowLegend(windows));
  return frame(LATENCY_TITLE, 'latency (ms)', top, step, bars.join('\n'), 'percentile of responses');
}

/**
 * Responses per second over the run, one step per second (each point is the rate of the second that ends at `t`), drawn
 * from 0 to the end of the run so that a short run is not stretched over the points it has.
 */
export function throughputChart(throughput: LoadChartData['throughput'], seconds?: number, windows: readonly ChartWindow[] = []): string {
  const points = [...throughput].sort((a, b) => a.t - b.t);
  const { top, step } = niceScale(Math.max(0, ...points.map((q) => q.rps), ...windows.map((w) => w.rps)));
  const span = Math.max(1e-9, seconds ?? points.at(-1)?.t ?? 1);
  const x = (t: number): number => PAD.left + (Math.min(t, span) / span) * PLOT_W;
  const y = (rps: number): number => PAD.top + PLOT_H - (Math.max(0, rps) / top) * PLOT_H;
  const xy: Array<[number, number]> = [];
  let from = 0;
  for (const q of points) {
    xy.push([x(from), y(q.rps)], [x(q.t), y(q.rps)]);
    from = q.t;
  }
  const line = xy.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ');
  const base = PAD.top + PLOT_H;
  const area =
    xy.length > 0 ? `<polygon points="${PAD.left},${base} ${line} ${(xy.at(-1)?.[0] ?? PAD.left).toFixed(1)},${base}" class="area"/>` : '';
  // Each trend window as a shaded span, its mean throughput a dashed line across it.
  const marks = windows.map((w) => {
    const colour = WINDOW_COLOURS[w.name];
    const [x1, x2] = [x(w.from), x(Math.max(w.from, w.to))];
    return (
      `<rect x="${x1.toFixed(1)}" y="${PAD.top}" width="${(x2 - x1).toFixed(1)}" height="${PLOT_H}" fill="${colour}" ` +
      `fill-opacity="0.1">` +
      `<title>${w.name} window ${label(w.from)}–${label(w.to)} s: ${label(w.rps)} responses/s</title></rect>` +
      `<line x1="${x1.toFixed(1)}" x2="${x2.toFixed(1)}" y1="${y(w.rps).toFixed(1)}" y2="${y(w.rps).toFixed(1)}"` +
      ` stroke="${colour}" stroke-width="2" stroke-dasharray="5 3"/>`
    );
  });
  const overlay = `${marks.join('')}${windows.length > 0 ? windowLegend(windows) : ''}`;
  const xTicks = [0, 0.25, 0.5, 0.75, 1].map(
    (f) =>
      `<text x="${(PAD.left + f * PLOT_W).toFixed(1)}" y="${base + 16}" ` +
      `text-anchor="middle">${label(Math.round(f * span * 10) / 10)}</text>`,
  );
  return frame(
    THROUGHPUT_TITLE,
    'responses/s',
    top,
    step,
    `${area}${overlay}<polyline points="${line}" class="line"/>\n${xTicks.join('')}`,
    'seconds from the start',
  );
}
