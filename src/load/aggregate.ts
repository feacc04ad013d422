/** Raw runs (one machine, or several merged) to the metrics thresholds judge: counts add up, histograms merge exactly. */
import type { Histogram } from 'hdr-histogram-js';
import {
  ADDED_COUNTS,
  type ErrorCause,
  type LoadCounts,
  type LoadMetrics,
  type RawLoadRun,
  type RawWindow,
  type WindowMetrics,
} from '../model/load.js';
import { CHART_PERCENTILES, encodeHistogram, mergeHistograms, microsToMs, percentileMs } from './latency-histogram.js';
import { addListingJudgements } from './listing-judge.js';
import { MAX_EVIDENCE } from './sampler.js';

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function sum(runs: readonly RawLoadRun[], field: (run: RawLoadRun) => number): number {
  return runs.reduce((total, run) => total + field(run), 0);
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [key, count] of Object.entries(from)) into[key] = (into[key] ?? 0) + count;
}

/** The counts of several runs added up: every counter, the status codes and the causes of failure (most frequent first). */
function addedCounts(runs: readonly RawLoadRun[]): LoadCounts {
  const statusCodes: Record<string, number> = {};
  const causes: Record<string, number> = {};
  for (const run of runs) {
    addCounts(statusCodes, run.statusCodes);
    addCounts(causes, Object.fromEntries(run.errorCauses.map((c) => [c.cause, c.count])));
  }
  const errorCauses: ErrorCause[] = Object.entries(causes)
    .map(([cause, count]) => ({ cause, count }))
    .sort((a, b) => b.count - a.count);
  // A raw run of an earlier version has no rate-limited count: it counted those answers among non2xx.
  const counts = Object.fromEntries(ADDED_COUNTS.map((field) => [field, sum(runs, (r) => r[field] ?? 0)])) as Record<
    (typeof ADDED_COUNTS)[number],
    number
  >;
  return { ...counts, statusCodes, errorCauses };
}

/**
 * Combines raw runs into one set of metrics. Latency comes from the merged HDR histograms (µs); counts add up; runs
 * merged from several machines ran at the same time, so their rates add up too.
 */
export function aggregateRuns(runs: readonly RawLoadRun[]): LoadMetrics {
  const histogram = mergeHistograms(runs.map((r) => r.latencyHistogram));
  const rateOf = (count: (run: RawLoadRun) => number): number =>
    round(
      sum(runs, (r) => (r.durationSeconds > 0 ? count(r) / r.durationSeconds : 0)),
      1,
    );
  const targets = runs.map((r) => r.rate).filter((rate): rate is number => rate !== undefined);
  const maxMs = microsToMs(Math.max(0, ...runs.map((r) => r.maxLatencyMicros)));
  // A histogram reads a value back as the top of its bucket (within 0.1 %); never above the exact maximum.
  const at = (p: number): number => Math.min(percentileMs(histogram, p), maxMs);
  const metrics: LoadMetrics = {
    ...addedCounts(runs),
    durationSeconds: Math.max(0, ...runs.map((r) => r.durationSeconds)),
    rps: rateOf((r) => r.responses),
    sendRate: rateOf((r) => r.requests),
    latency: {
      p50: at(50),
      p90: at(90),
      p99: at(99),
      max: maxMs,
      mean: histogram.totalCount === 0 ? 0 : round(histogram.mean / 1000, 3),
    },
    percentiles: histogram.totalCount === 0 ? [] : CHART_PERCENTILES.map((p) => ({ p, ms: at(p) })),
    // With a target rate each request is timed from when the schedule meant it to go out (runner.ts), else from its send.
    latencyFrom: targets.length > 0 ? 'scheduled-send' : 'actual-send',
  };
  if (targets.length > 0) metrics.targetRate = targets.reduce((a, b) => a + b, 0);
  const windows = windowsOf(runs);
  if (windows !== undefined) metrics.windows = windows;
  return metrics;
}

/** The raw windows of runs that ran at once (workers, machines) as one: counts and concurrency add, histograms merge. */
function addWindows(windows: readonly RawWindow[]): RawWindow {
  const { histogram, ...counts } = addedWindowCounts(windows);
  return { ...counts, latencyHistogram: encodeHistogram(histogram) };
}

function addedWindowCounts(windows: readonly RawWindow[]): Omit<RawWindow, 'latencyHistogram'> & { histogram: Histogram } {
  const total = (field: (w: RawWindow) => number): number => windows.reduce((sum, w) => sum + field(w), 0);
  return {
    from: (windows[0] as RawWindow).from,
    // Where the shortest ended: a window some run did not measure whole is not whole.
    to: Math.min(...windows.map((w) => w.to)),
    offered: total((w) => w.offered),
    concurrency: round(total((w) => w.concurrency)),
    // The busiest generator decides whether the generators were the limit.
    generatorBusy: Math.max(...windows.map((w) => w.generatorBusy)),
    responses: total((w) => w.responses),
    histogram: mergeHistograms(windows.map((w) => w.latencyHistogram)),
    maxLatencyMicros: Math.max(...windows.map((w) => w.maxLatencyMicros)),
  };
}

/** The figures of a window that runs at once measured: each run's rates over its own window, added up. */
function windowMetrics(windows: readonly RawWindow[]): WindowMetrics {
  const { histogram, ...counts } = addedWindowCounts(windows);
  const maxMs = microsToMs(counts.maxLatencyMicros);
  const at = (p: number): number => Math.min(percentileMs(histogram, p), maxMs);
  const perSecond = (count: (w: RawWindow) => number): number =>
    round(
      windows.reduce((sum, w) => sum + (w.to > w.from ? count(w) / (w.to - w.from) : 0), 0),
      1,
    );
  return {
    from: counts.from,
    to: counts.to,
    offeredRate: perSecond((w) => w.offered),
    concurrency: counts.concurrency,
    generatorBusy: counts.generatorBusy,
    responses: counts.responses,
    rps: perSecond((w) => w.responses),
    latency: { p50: at(50), p90: at(90), p99: at(99) },
    latencyFrom: 'actual-send',
  };
}

/** Each run's first and last windows, when every run of the stage measured them (else none: a part is not the stage). */
function measuredWindows(runs: readonly RawLoadRun[]): Array<NonNullable<RawLoadRun['windows']>> | undefined {
  const measured = runs.flatMap((r) => (r.windows === undefined ? [] : [r.windows]));
  return measured.length > 0 && measured.length === runs.length ? measured : undefined;
}

/** The first and last windows of runs of one stage, when every run measured them. */
function windowsOf(runs: readonly RawLoadRun[]): LoadMetrics['windows'] {
  const measured = measuredWindows(runs);
  if (measured === undefined) return undefined;
  return { first: windowMetrics(measured.map((w) => w.first)), last: windowMetrics(measured.map((w) => w.last)) };
}

/** Responses per second over consecutive stages; the runs of one stage (several machines) add up second by second. */
export function throughputOf(stages: ReadonlyArray<{ raw: readonly RawLoadRun[] }>): Array<{ t: number; rps: number }> {
  const series: Array<{ t: number; rps: number }> = [];
  let offset = 0;
  for (const stage of stages) {
    const bySecond = new Map<number, number>();
    for (const run of stage.raw) for (const point of run.throughput) bySecond.set(point.t, (bySecond.get(point.t) ?? 0) + point.rps);
    const seconds = [...bySecond.keys()].sort((a, b) => a - b);
    for (const t of seconds) series.push({ t: round(offset + t, 3), rps: round(bySecond.get(t) as number, 1) });
    offset += Math.max(0, ...stage.raw.map((r) => r.durationSeconds));
  }
  return series;
}

/**
 * One raw run from runs that ran side by side on one machine (the workers of a stage): counts and rates add up,
 * histograms merge exactly, each second's throughput is the sum of the workers' for that second.
 */
export function combineConcurrentRuns(runs: readonly RawLoadRun[]): RawLoadRun {
  const [first] = runs;
  if (first === undefined) throw new Error('no runs to combine');
  if (runs.length === 1) return first;
  const seconds = Math.max(...runs.map((r) => r.throughput.length));
  const throughput = Array.from({ length: seconds }, (_, i) => ({
    t: Math.max(...runs.map((r) => r.throughput[i]?.t ?? 0)),
    rps: round(
      sum(runs, (r) => r.throughput[i]?.rps ?? 0),
      1,
    ),
  }));
  const rates = runs.map((r) => r.rate).filter((rate): rate is number => rate !== undefined);
  const combined: RawLoadRun = {
    ...addedCounts(runs),
    format: first.format,
    startedAt: runs.map((r) => r.startedAt).sort()[0] as string,
    durationSeconds: Math.max(...runs.map((r) => r.durationSeconds)),
    latencyHistogram: encodeHistogram(mergeHistograms(runs.map((r) => r.latencyHistogram))),
    maxLatencyMicros: Math.max(...runs.map((r) => r.maxLatencyMicros)),
    violations: runs.flatMap((r) => r.violations).slice(0, MAX_EVIDENCE),
    interrupted: runs.some((r) => r.interrupted),
    throughput,
  };
  if (rates.length > 0) combined.rate = rates.reduce((a, b) => a + b, 0);
  combined.workers = sum(runs, (r) => r.workers ?? 1);
  const listings = addListingJudgements(runs.map((r) => r.listings));
  if (listings !== undefined) combined.listings = listings;
  const windows = measuredWindows(runs);
  if (windows !== undefined)
    combined.windows = { first: addWindows(windows.map((w) => w.first)), last: addWindows(windows.map((w) => w.last)) };
  return combined;
}
