/** Thresholds as data: each bound on a real metric becomes a check `load.<profile>.<metric>` in the result model. */
import { METRICS, type LoadMetrics, type LoadProfile, type Metric, type SampleViolation, type Threshold } from '../model/load.js';
import type { CheckResult, Outcome, SourceLocation } from '../model/results.js';

/** Failed requests and wrong answers fail a profile even when it names no bound for them. */
const IMPLICIT: Partial<Record<Metric, Threshold>> = { errors: { max: 0 }, non2xx: { max: 0 }, mismatches: { max: 0 } };

const UNITS: Record<Metric, string> = {
  p50: 'ms',
  p90: 'ms',
  p99: 'ms',
  max: 'ms',
  rps: 'requests/s',
  errors: 'failed requests (connection errors and timeouts)',
  timeouts: 'timeouts',
  non2xx: 'non-2xx responses',
  mismatches: 'sampled responses that broke the contract',
};

/** One threshold judged against the metrics. */
export interface ThresholdVerdict {
  metric: Metric;
  threshold: Threshold;
  actual: number;
  ok: boolean;
  message: string;
}

/** The thresholds of a profile, the implicit ones included, in report order. */
export function effectiveThresholds(profile: LoadProfile): Array<[Metric, Threshold]> {
  // A ramp stage holds only if it reaches its rate, so a ramp always judges rps.
  const all = { ...IMPLICIT, ...(profile.ramp ? { rps: { min: 0 } } : {}), ...profile.thresholds };
  return METRICS.flatMap((metric) => (all[metric] === undefined ? [] : [[metric, all[metric]] as [Metric, Threshold]]));
}

/** The value of a metric in a set of metrics. */
function metricValue(metrics: LoadMetrics, metric: Metric): number {
  if (metric === 'p50' || metric === 'p90' || metric === 'p99' || metric === 'max') return metrics.latency[metric];
  return metrics[metric];
}

/** Judges one threshold; `extraMin` raises an rps floor (a ramp stage must reach most of its target rate). */
export function judgeThreshold(metric: Metric, threshold: Threshold, metrics: LoadMetrics, extraMin = 0): ThresholdVerdict {
  const actual = metricValue(metrics, metric);
  const unit = UNITS[metric];
  if (threshold.maxRate !== undefined) {
    const share = metrics.requests === 0 ? 0 : actual / metrics.requests;
    const ok = share <= threshold.maxRate;
    return { metric, threshold, actual, ok, message: `${actual} ${unit} of ${metrics.requests} requests (${(share * 100).toFixed(3)} %; at most ${threshold.maxRate * 100} % allowed)` };
  }
  if (threshold.min !== undefined || extraMin > 0) {
    const floor = Math.max(threshold.min ?? 0, extraMin);
    return { metric, threshold, actual, ok: actual >= floor, message: `${actual} ${unit} (at least ${floor} required)` };
  }
  const max = threshold.max ?? Infinity;
  return { metric, threshold, actual, ok: actual <= max, message: `${actual} ${unit} (at most ${max} allowed)` };
}

/** Every threshold of the profile judged against one set of metrics. */
export function judgeAll(profile: LoadProfile, metrics: LoadMetrics, rpsFloor = 0): ThresholdVerdict[] {
  return effectiveThresholds(profile).map(([metric, threshold]) => judgeThreshold(metric, threshold, metrics, metric === 'rps' ? rpsFloor : 0));
}

/** The title of a threshold check, e.g. `p99 latency at most 500 ms`. */
function titleOf(metric: Metric, threshold: Threshold): string {
  if (threshold.maxRate !== undefined) return `${metric}: at most ${threshold.maxRate * 100} % of requests`;
  if (threshold.min !== undefined) return `${metric}: at least ${threshold.min} ${UNITS[metric]}`;
  const latency = ['p50', 'p90', 'p99', 'max'].includes(metric);
  return latency ? `${metric} latency at most ${threshold.max ?? 0} ms` : `${metric}: at most ${threshold.max ?? 0}`;
}

/** A load check in the shape of every other check of the report. */
export function loadCheck(profile: LoadProfile, idSuffix: string, title: string, source: SourceLocation, outcome: Outcome, message: string, details: string[] = []): CheckResult {
  const assertion = { id: idSuffix, level: 'fail' as const, outcome: outcome === 'failed' ? ('failed' as const) : ('passed' as const), step: 0, message };
  return {
    id: `load.${profile.name}.${idSuffix}`,
    title,
    clause: `Load profile ${profile.name}: ${idSuffix}`,
    suite: 'load',
    operation: 'listPets',
    level: 'fail',
    source,
    outcome,
    durationMs: 0,
    ...(outcome === 'passed' ? {} : { reason: message }),
    // Errored means not judged: there is no assertion to report, only the reason.
    assertions: outcome === 'errored' ? [] : [details.length > 0 ? { ...assertion, details } : assertion],
    exchanges: [],
    retries: 0,
  };
}

/** Turns verdicts into checks; the mismatches check carries the sampled evidence. */
export function thresholdChecks(profile: LoadProfile, verdicts: readonly ThresholdVerdict[], violations: readonly SampleViolation[], note = ''): CheckResult[] {
  return verdicts.map((v) => {
    const source = profile.thresholdSources[v.metric] ?? { file: profile.file, line: 1, column: 1 };
    const details = v.metric === 'mismatches' ? violations.map((x) => `GET ${x.target} → ${x.status}: ${x.problems.join('; ')}`) : [];
    return loadCheck(profile, v.metric, titleOf(v.metric, v.threshold), source, v.ok ? 'passed' : 'failed', `${v.message}${note}`, details);
  });
}
