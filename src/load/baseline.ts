/** Compares a load run with an earlier run's report: p50, p99, throughput and error rate, within a tolerance. */
import { readFile } from 'node:fs/promises';
import { RunError } from '../model/errors.js';
import type { BaselineComparison, LoadMetrics, LoadProfile } from '../model/load.js';
import type { CheckResult } from '../model/results.js';
import { loadCheck } from './thresholds.js';

// Absolute slack under which a change is noise: a histogram bucket of latency, a tenth of a percent of errors.
const LATENCY_SLACK_MS = 1;
const ERROR_RATE_SLACK = 0.001;

/** The share of requests that failed in any way: transport errors, non-2xx answers and wrong sampled answers. */
export function errorRate(metrics: LoadMetrics): number {
  return metrics.requests === 0 ? 0 : (metrics.errors + metrics.non2xx + metrics.mismatches) / metrics.requests;
}

/** Reads the load metrics of an earlier report.json; a file that is not one is a usage error (exit 2). */
export async function readBaseline(file: string): Promise<LoadMetrics> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'not JSON' : `cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    throw new RunError('ERR_CONFIG', `--baseline ${file}: ${reason}`);
  }
  const metrics = (value as { load?: { metrics?: LoadMetrics } } | null)?.load?.metrics;
  if (typeof metrics?.rps !== 'number' || typeof metrics.latency?.p99 !== 'number') {
    throw new RunError('ERR_CONFIG', `--baseline ${file}: not the report.json of a load run (no load.metrics)`);
  }
  return metrics;
}

function compare(metric: BaselineComparison['metric'], baseline: number, current: number, tolerance: number): BaselineComparison {
  const change = baseline === 0 ? (current === 0 ? 0 : Infinity) : current / baseline - 1;
  let regressed: boolean;
  if (metric === 'rps') regressed = current < baseline * (1 - tolerance);
  else if (metric === 'errorRate') regressed = current > baseline * (1 + tolerance) + ERROR_RATE_SLACK;
  else regressed = current > baseline * (1 + tolerance) + LATENCY_SLACK_MS;
  return { metric, baseline, current, change: Number.isFinite(change) ? Math.round(change * 1000) / 1000 : change, regressed };
}

/** Every comparison with the baseline. */
export function compareWithBaseline(baseline: LoadMetrics, current: LoadMetrics, tolerance: number): BaselineComparison[] {
  return [
    compare('p50', baseline.latency.p50, current.latency.p50, tolerance),
    compare('p99', baseline.latency.p99, current.latency.p99, tolerance),
    compare('rps', baseline.rps, current.rps, tolerance),
    compare('errorRate', Math.round(errorRate(baseline) * 1e6) / 1e6, Math.round(errorRate(current) * 1e6) / 1e6, tolerance),
  ];
}

/** One check per comparison, `load.<profile>.baseline.<metric>`. */
export function baselineChecks(profile: LoadProfile, comparisons: readonly BaselineComparison[], file: string, tolerance: number): CheckResult[] {
  return comparisons.map((c) => {
    const direction = c.metric === 'rps' ? 'lower' : 'higher';
    const change = Number.isFinite(c.change) ? `${c.change >= 0 ? '+' : ''}${(c.change * 100).toFixed(1)} %` : 'from 0';
    const message = `${c.metric} ${c.current} vs baseline ${c.baseline} (${change}; a regression is ${direction} by more than ${tolerance * 100} %)`;
    return loadCheck(profile, `baseline.${c.metric}`, `${c.metric} no worse than the baseline ${file}`, { file: profile.file, line: 1, column: 1 }, c.regressed ? 'failed' : 'passed', message);
  });
}
