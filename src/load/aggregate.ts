/** Raw runs (one machine, or several merged) to the metrics thresholds judge, through autocannon's aggregation. */
import autocannon from 'autocannon';
import type { LoadMetrics, RawLoadRun } from '../model/load.js';

interface AggregatedShape {
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
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
  };
}
