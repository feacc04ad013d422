/** Run-scope checks over a load profile's figures: thresholds, the capacity of a ramp, the comparison with a baseline. */
import { couldNotTest, failed, notJudged, passed, type Judgement, type RunCheck } from '../model/check.js';
import {
  formatMs,
  METRICS,
  type BaselineComparison,
  type LatencyMetric,
  type LoadMetrics,
  type LoadProfile,
  type LoadStage,
  type Metric,
  PRESSURE_METRICS,
  type Threshold,
} from '../model/load.js';
import { LISTING_CHECKS } from './load-listings.js';
import { TREND_CHECK } from './load-trend.js';

/** Failed requests, requests reset on a busy connection and wrong answers fail a profile even when it names no bound for them. */
const IMPLICIT: Partial<Record<Metric, Threshold>> = { errors: { max: 0 }, resets: { max: 0 }, non2xx: { max: 0 }, mismatches: { max: 0 } };

/** A ramp stage holds only when it reaches this share of its target rate. */
export const RATE_HELD_SHARE = 0.9;

// Absolute slack under which a change is noise: 1 ms of latency (scheduling jitter of a shared machine, not the service),
// a tenth of a percent of errors.
const LATENCY_SLACK_MS = 1;
const ERROR_RATE_SLACK = 0.001;

const UNITS: Record<Metric, string> = {
  p50: 'ms',
  p90: 'ms',
  p99: 'ms',
  max: 'ms',
  rps: 'requests/s',
  errors: 'failed requests (connection errors and timeouts)',
  timeouts: 'timeouts',
  resets: 'requests reset on a busy connection',
  non2xx: 'non-2xx responses',
  mismatches: 'responses that broke the contract (sampled, or past the size cap)',
  rateLimited: 'rate-limited answers (429, 503)',
};

/** The id of the check that judges a metric's threshold: `load.<metric>`, in kebab case where the metric has two words. */
export function thresholdCheckId(metric: Metric): string {
  return metric === 'rateLimited' ? 'load.rate-limited' : `load.${metric}`;
}

/** Where a threshold comes from, when more than the profile's bound: the reading of the contract it applies. */
const CLAUSES: Partial<Record<Metric, string>> = {
  resets:
    'reading-the-contract, Connection management: a server may close an idle keep-alive connection (the request is sent once ' +
    'more), but a busy one closed under a request it was given leaves a valid request unanswered while the server answers others',
  rateLimited:
    'reading-the-contract: 429 and 503 (with Retry-After) are the server pacing its clients, never a verdict on the contract; ' +
    'a profile may still bound how often a gate allows them',
};

/** A share as a percentage for people: 0.07 reads 7, not 7.000000000000001. */
function percent(share: number): string {
  return String(Number((share * 100).toPrecision(12)));
}

/** One threshold judged against the metrics. */
export interface ThresholdVerdict {
  metric: Metric;
  threshold: Threshold;
  actual: number;
  ok: boolean;
  /** The bound in words, e.g. `at most 500 ms`. */
  bound: string;
  /** The bound as a comparison, as load tools print it: `p99 <= 500 ms`, `rps >= 810/s`, `errors <= 0.1 % of requests`. */
  expression: string;
  message: string;
}

/** A metric's unit in a comparison: `ms`, `/s`, nothing for a count. */
function shortUnit(metric: Metric): string {
  return isLatency(metric) ? ' ms' : metric === 'rps' ? '/s' : '';
}

/** The thresholds of a profile, the implicit ones included, in report order. */
export function effectiveThresholds(profile: LoadProfile): Array<[Metric, Threshold]> {
  // A ramp stage holds only if it reaches its rate, so a ramp always judges rps.
  const all = { ...IMPLICIT, ...(profile.ramp ? { rps: { min: 0 } } : {}), ...profile.thresholds };
  return METRICS.flatMap((metric) => (all[metric] === undefined ? [] : [[metric, all[metric]] as [Metric, Threshold]]));
}

function isLatency(metric: Metric): metric is LatencyMetric {
  return metric === 'p50' || metric === 'p90' || metric === 'p99' || metric === 'max';
}

/** The value of a metric in a set of metrics. */
function metricValue(metrics: LoadMetrics, metric: Metric): number {
  return isLatency(metric) ? metrics.latency[metric] : metrics[metric];
}

/** The rps a stage must reach: a ramp stage holds only near its target rate. */
function rpsFloor(profile: LoadProfile, rate: number | undefined): number {
  return profile.ramp && rate !== undefined ? Math.floor(rate * RATE_HELD_SHARE) : 0;
}

/** Judges one threshold; `extraMin` raises an rps floor (a ramp stage must reach most of its target rate). */
export function judgeThreshold(metric: Metric, threshold: Threshold, metrics: LoadMetrics, extraMin = 0): ThresholdVerdict {
  const actual = metricValue(metrics, metric);
  const unit = UNITS[metric];
  if (isLatency(metric) && metrics.responses === 0) {
    // Requests that were never answered have no latency to bound: a silent server must not pass a latency threshold.
    const bound = `at most ${threshold.max ?? Infinity} ms`;
    return {
      metric,
      threshold,
      actual,
      ok: false,
      bound,
      expression: `${metric} <= ${threshold.max ?? Infinity} ms`,
      message:
        `no response in ${metrics.durationSeconds} s (${metrics.requests} requests sent, ${metrics.inFlightAtStop} ` +
        `still in flight at the stop): latency cannot be shown ${bound}`,
    };
  }
  if (threshold.maxRate !== undefined) {
    const share = metrics.requests === 0 ? 0 : actual / metrics.requests;
    const bound = `at most ${percent(threshold.maxRate)} % of requests`;
    return {
      metric,
      threshold,
      actual,
      ok: share <= threshold.maxRate,
      bound,
      expression: `${metric} <= ${percent(threshold.maxRate)} % of requests`,
      message: `${actual} ${unit} of ${metrics.requests} requests (${(share * 100).toFixed(3)} %; ${bound} allowed)`,
    };
  }
  if (threshold.min !== undefined || extraMin > 0) {
    const floor = Math.max(threshold.min ?? 0, extraMin);
    const bound = `at least ${floor} ${unit}`;
    return {
      metric,
      threshold,
      actual,
      ok: actual >= floor,
      bound,
      expression: `${metric} >= ${floor}${shortUnit(metric)}`,
      message: `${actual} ${unit} (at least ${floor} required)`,
    };
  }
  const max = threshold.max ?? Infinity;
  return {
    metric,
    threshold,
    actual,
    ok: actual <= max,
    bound: `at most ${max} ${unit}`,
    expression: `${metric} <= ${max}${shortUnit(metric)}`,
    message: `${actual} ${unit} (at most ${max} allowed)`,
  };
}

/** Every threshold of the profile judged against one set of metrics. */
function judgeAll(profile: LoadProfile, metrics: LoadMetrics, floor = 0): ThresholdVerdict[] {
  return effectiveThresholds(profile).map(([metric, threshold]) =>
    judgeThreshold(metric, threshold, metrics, metric === 'rps' ? floor : 0),
  );
}

/** The metrics a stage broke (a pressure step: only those it is held to). */
export function breachedMetrics(profile: LoadProfile, stage: LoadStage): Metric[] {
  return judgeAll(profile, stage.metrics, rpsFloor(profile, stage.rate))
    .filter((v) => !v.ok && (stage.pressure === undefined || PRESSURE_METRICS.includes(v.metric)))
    .map((v) => v.metric);
}

/** The pressure step held to the count thresholds of its profile: errors, resets, non-2xx, contract violations at full speed. */
const pressureCheck: RunCheck = {
  id: 'load.pressure',
  title: "The profile's pressure step (more connections, full speed) keeps its count thresholds",
  clause:
    "the load profile's pressure step: as many requests in flight as it has connections, held to the profile's bounds on " +
    `${PRESSURE_METRICS.join(', ')} (0 where the profile names none, as for the rest of the load); its listings are held to the ` +
    'store invariants by load.listing-*',
  level: 'fail',
  scope: 'run',
  appliesWhen: 'a load profile has a pressure step',
  applies: ({ load }) => load.profile.pressure !== undefined,
  sourceOf: ({ load }) => load.profile.pressureSource,
  evaluate({ load }): Judgement {
    const step = load.stages.find((s) => s.pressure !== undefined);
    if (step === undefined)
      return couldNotTest('the pressure step did not run: the load stopped first (Ctrl-C, or its request budget was spent)');
    const m = step.metrics;
    const at = `${step.pressure?.connections ?? 0} connections for ${m.durationSeconds} s: ${m.requests} requests, ${m.rps} responses/s`;
    const verdicts = judgeAll(load.profile, m).filter((v) => PRESSURE_METRICS.includes(v.metric));
    const broken = verdicts.filter((v) => !v.ok);
    if (broken.length === 0) return passed(`${at}; ${verdicts.map((v) => `${v.metric} ${v.actual}`).join(', ')}`);
    return failed(
      broken.map((v) => ({ message: `at ${at}: ${v.metric}: ${v.message}`, expected: v.bound, actual: `${v.actual} ${UNITS[v.metric]}` })),
    );
  },
};

/** What a threshold measured, as load tools print it: `p99 = 12.3 ms`, `errors = 3 of 27012 (0.011 %)`, `rps = 900/s`. */
function measured(verdict: ThresholdVerdict, metrics: LoadMetrics): string {
  const { metric, actual, threshold } = verdict;
  if (isLatency(metric)) return metrics.responses === 0 ? `${metric}: no response` : `${metric} = ${formatMs(actual)}`;
  if (metric === 'rps') return `rps = ${actual}/s`;
  if (threshold.maxRate !== undefined && metrics.requests > 0)
    return `${metric} = ${actual} of ${metrics.requests} (${((actual / metrics.requests) * 100).toFixed(3)} %)`;
  return `${metric} = ${actual}`;
}

function thresholdCheck(metric: Metric): RunCheck {
  return {
    id: thresholdCheckId(metric),
    title: `${metric} (${UNITS[metric]}) within the profile's threshold`,
    clause:
      `${CLAUSES[metric] === undefined ? '' : `${CLAUSES[metric]}; `}the load profile's threshold on ` +
      `${metric}${IMPLICIT[metric] ? ' (0 unless the profile says otherwise)' : ''}`,
    level: 'fail',
    scope: 'run',
    appliesWhen:
      `a load profile bounds ` +
      `${metric}${IMPLICIT[metric] ? ' (always: bounded at 0 by default)' : ''}${metric === 'rps' ? ' (always for a ramp)' : ''}`,
    applies: ({ load }) => effectiveThresholds(load.profile).some(([m]) => m === metric),
    sourceOf: ({ load }) => load.profile.thresholdSources[metric],
    evaluate({ load }) {
      const threshold = effectiveThresholds(load.profile).find(([m]) => m === metric)?.[1] ?? {};
      const verdict = judgeThreshold(metric, threshold, load.metrics, metric === 'rps' ? rpsFloor(load.profile, load.judgedRate) : 0);
      const at = load.judgedRate === undefined || load.profile.ramp === undefined ? '' : ` at ${load.judgedRate}/s`;
      // How it was judged goes with the verdict: the reports show the bound and the measure beside it, never judging again.
      const shown = { threshold: { expression: verdict.expression, measured: measured(verdict, load.metrics) } };
      if (verdict.ok) return { ...passed(`${verdict.message}${at}`), ...shown };
      const evidence =
        metric === 'mismatches'
          ? load.violations.map((x) => ({ message: `GET ${x.target} → ${x.status}: ${x.problems.join('; ')}`, actual: x.bodyExcerpt }))
          : [];
      return {
        ...failed([
          { message: `${verdict.message}${at}`, expected: verdict.bound, actual: `${verdict.actual} ${UNITS[metric]}` },
          ...evidence,
        ]),
        ...shown,
      };
    },
  };
}

const capacity: RunCheck = {
  id: 'load.capacity',
  title: 'A ramp holds the rate the profile requires',
  clause: "the load profile's ramp.require (default: ramp.from): every stage up to it holds every threshold",
  level: 'fail',
  scope: 'run',
  appliesWhen: 'a load profile ramps',
  applies: ({ load }) => load.profile.ramp !== undefined,
  sourceOf: ({ load }) => load.profile.rampSource,
  evaluate({ load }): Judgement {
    const ramp = load.profile.ramp;
    if (ramp === undefined) return passed('no ramp');
    const required = ramp.require ?? ramp.from;
    const held = load.highestRateHeld;
    const breach = load.stages.find((s) => s.breached.length > 0);
    const heldText = held === undefined ? 'no stage held' : `the highest rate that held is ${held}/s`;
    const breachText = breach === undefined ? '' : `; ${breach.rate ?? 0}/s broke ${breach.breached.join(', ')}`;
    if (breach !== undefined && (breach.rate ?? 0) <= required)
      return failed({
        message: `${heldText}${breachText}`,
        expected: `at least ${required}/s held`,
        actual: held === undefined ? 'none' : `${held}/s`,
      });
    if ((held ?? 0) >= required) return passed(`${heldText}${breachText}`);
    return couldNotTest(`${heldText}${breachText} (the ramp ended before ${required}/s: duration, request budget or Ctrl-C)`);
  },
};

/** The share of requests that failed in any way: transport errors, non-2xx answers and wrong sampled answers. */
export function errorRate(metrics: LoadMetrics): number {
  return metrics.requests === 0 ? 0 : (metrics.errors + metrics.non2xx + metrics.mismatches) / metrics.requests;
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

function baselineCheck(metric: BaselineComparison['metric']): RunCheck {
  const direction = metric === 'rps' ? 'lower' : 'higher';
  return {
    id: `load.baseline.${metric}`,
    title: `${metric} no worse than the baseline run`,
    clause: `--baseline: ${metric} is not ${direction} than the earlier run's by more than the tolerance`,
    level: 'fail',
    scope: 'run',
    appliesWhen: 'a load run is given a --baseline',
    applies: ({ load }) => load.baseline !== undefined,
    sourceOf: () => undefined,
    evaluate({ load }) {
      const unlike = load.baseline?.notComparable ?? [];
      if (load.baseline !== undefined && unlike.length > 0)
        return notJudged(`not comparable: the baseline ${load.baseline.file} is of another load (${unlike.join('; ')})`);
      const c = load.baseline?.comparisons.find((x) => x.metric === metric);
      if (load.baseline === undefined || c === undefined) return passed('no baseline');
      const { file, tolerance } = load.baseline;
      const change = Number.isFinite(c.change) ? `${c.change >= 0 ? '+' : ''}${(c.change * 100).toFixed(1)} %` : 'from 0';
      const noise = c.ranges === undefined ? '' : `; 95 % intervals ${c.ranges.baseline.join('–')} then, ${c.ranges.current.join('–')} now`;
      const message =
        `${metric} ${c.current} vs baseline ${c.baseline} in ${file} (${change}; a regression is ${direction} by ` +
        `more than ${percent(tolerance)} %${c.ranges === undefined ? '' : ' beyond the noise'}${noise})`;
      if (c.tooFewSamples !== undefined) return notJudged(`${message}: ${c.tooFewSamples}`);
      return c.regressed
        ? failed({
            message,
            expected: `not ${direction} than ${c.baseline} by more than ${percent(tolerance)} %`,
            actual: String(c.current),
          })
        : passed(message);
    },
  };
}

/** Every run-scope check, in the order reports list them. */
export const LOAD_CHECKS: readonly RunCheck[] = [
  ...METRICS.map(thresholdCheck),
  capacity,
  pressureCheck,
  TREND_CHECK,
  ...LISTING_CHECKS,
  ...(['p50', 'p99', 'rps', 'errorRate'] as const).map(baselineCheck),
];
