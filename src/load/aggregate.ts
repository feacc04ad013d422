/** Raw runs (one machine, or several merged) to the metrics thresholds judge, through autocannon's aggregation. */
import autocannon from 'autocannon';
import type { LoadMetrics, RawLoadRun } from '../model/load.js';

interface AggregatedShape {
  latency: { p50: number; p90: number; p99: number; max: number; average: number } & Record<string, number>;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats?: Record<string, { count?: number }>;
}

// autocannon exports aggregateResult (documented in its README) but its type definitions omit it.
const { aggregateResult } = autocannon as unknown as { aggregateResult(results: unknown[], options: { url: string }): AggregatedShape };

function numberField(record: Record<string, unknown>, key: string): number {
  const value = record[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * Combines raw runs into one set of metrics. Latency percentiles come from the merged HDR histograms
 * (autocannon.aggregateResult); counts add up; runs merged from several machines ran at the same
 * time, so their request rates add up too.
 */
export function aggregateRuns(runs: readonly RawLoadRun[], url: string): LoadMetrics {
  // aggregateResult mutates what it is given (status code counts); it gets a copy.
  const aggregated = aggregateResult(structuredClone(runs.map((r) => r.autocannon)), { url });
  const responses = runs.reduce((sum, r) => sum + numberField(r.autocannon, 'totalCompletedRequests'), 0);
  const rps = runs.reduce((sum, r) => {
    const seconds = numberField(r.autocannon, 'duration');
    return sum + (seconds > 0 ? numberField(r.autocannon, 'totalCompletedRequests') / seconds : 0);
  }, 0);
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(aggregated.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0;
  return {
    requests: runs.reduce((sum, r) => sum + numberField(r.autocannon, 'totalRequests'), 0),
    responses,
    durationSeconds: Math.max(0, ...runs.map((r) => numberField(r.autocannon, 'duration'))),
    rps: round(rps, 1),
    latency: {
      p50: aggregated.latency.p50,
      p90: aggregated.latency.p90,
      p99: aggregated.latency.p99,
      max: aggregated.latency.max,
      mean: round(aggregated.latency.average),
    },
    errors: aggregated.errors,
    timeouts: aggregated.timeouts,
    non2xx: aggregated.non2xx,
    mismatches: runs.reduce((sum, r) => sum + r.mismatches, 0),
    sampled: runs.reduce((sum, r) => sum + r.sampled, 0),
    statusCodes,
    percentiles: percentilesOf(aggregated.latency),
  };
}

/** The upper percentiles of autocannon's latency object (p50, p97_5, p99_9...) as a sorted series; the tail is what matters. */
function percentilesOf(latency: Record<string, number>): Array<{ p: number; ms: number }> {
  return Object.entries(latency)
    .filter(([key, ms]) => /^p\d+(_\d+)?$/.test(key) && Number.isFinite(ms))
    .map(([key, ms]) => ({ p: Number(key.slice(1).replace('_', '.')), ms }))
    .filter(({ p }) => p >= 50)
    .sort((a, b) => a.p - b.p);
}

/** Responses per second over consecutive stages; the runs of one stage (several machines) add up second by second. */
export function throughputOf(stages: ReadonlyArray<{ raw: readonly RawLoadRun[] }>): Array<{ t: number; rps: number }> {
  const series: Array<{ t: number; rps: number }> = [];
  let offset = 0;
  for (const stage of stages) {
    const bySecond = new Map<number, number>();
    for (const run of stage.raw) for (const point of run.throughput ?? []) bySecond.set(point.t, (bySecond.get(point.t) ?? 0) + point.rps);
    const seconds = [...bySecond.keys()].sort((a, b) => a - b);
    for (const t of seconds) series.push({ t: offset + t, rps: bySecond.get(t) as number });
    offset += seconds.at(-1) ?? 0;
  }
  return series;
}
