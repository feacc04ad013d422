/**
 * What a finished run pushes to Prometheus: one sample per series, at the time the run finished, every series labelled
 * with the run's id (and the load's profile and stage), named `petstore_*`. Gauges, not counters: each run is a series of
 * its own, so a dashboard draws a trend night after night by dropping `run_id` (deploy/grafana-dashboard.json).
 */
import type { LatencyMetric, LoadMetrics } from '../model/load.js';
import type { RunReport } from '../model/results.js';
import type { PromLabel, PromSeries } from './prometheus-encoding.js';

/** The latency percentiles pushed, as the `quantile` label says them (Prometheus' convention, 0 to 1). */
const QUANTILES: ReadonlyArray<[LatencyMetric, string]> = [
  ['p50', '0.5'],
  ['p90', '0.9'],
  ['p99', '0.99'],
  ['max', '1'],
];

/** The counts of a load stage pushed, each as `petstore_load_<name>`. */
const LOAD_COUNTS = [
  'requests',
  'responses',
  'errors',
  'timeouts',
  'resets',
  'non2xx',
  'mismatches',
  'behindSchedule',
  'rateLimited',
] as const;

/** `behindSchedule` as Prometheus spells names: `behind_schedule`. */
function snake(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Adds series that share labels and a timestamp. */
class SeriesList {
  readonly series: PromSeries[] = [];
  private readonly timestampMs: number;
  private readonly redact: (text: string) => string;

  constructor(timestampMs: number, redact: (text: string) => string) {
    this.timestampMs = timestampMs;
    this.redact = redact;
  }

  /** A series; its label values pass the run's redactor, as every value of every report does. */
  add(name: string, labels: Record<string, string>, value: number): void {
    if (!Number.isFinite(value)) return;
    const all: PromLabel[] = [{ name: '__name__', value: `petstore_${name}` }];
    // Remote write forbids a label with an empty value (it is the label's absence): one is left out.
    for (const [label, text] of Object.entries(labels)) if (text !== '') all.push({ name: label, value: this.redact(text) });
    this.series.push({ labels: all, value, timestampMs: this.timestampMs });
  }
}

function addStage(list: SeriesList, labels: Record<string, string>, metrics: LoadMetrics): void {
  for (const count of LOAD_COUNTS) list.add(`load_${snake(count)}`, labels, metrics[count]);
  for (const [metric, quantile] of QUANTILES) list.add('load_latency_seconds', { ...labels, quantile }, metrics.latency[metric] / 1000);
  list.add('load_latency_mean_seconds', labels, metrics.latency.mean / 1000);
  list.add('load_throughput_rps', labels, metrics.rps);
  list.add('load_send_rate_rps', labels, metrics.sendRate);
  if (metrics.targetRate !== undefined) list.add('load_target_rps', labels, metrics.targetRate);
  list.add('load_error_ratio', labels, metrics.requests === 0 ? 0 : metrics.errors / metrics.requests);
  list.add('load_duration_seconds', labels, metrics.durationSeconds);
}

/**
 * The run's series: the cases by outcome, each check's judgements by outcome, the findings, the verdict and the run's size;
 * with a load, each stage's figures (stage 1, 2... in the profile's order), the thresholds it broke, and the comparison
 * with the baseline when there was one.
 */
export function runSeries(report: RunReport, redact: (text: string) => string): PromSeries[] {
  const list = new SeriesList(Date.parse(report.finishedAt), redact);
  const run = { run_id: report.meta.runId };
  for (const [outcome, count] of Object.entries(report.counts)) list.add('run_cases', { ...run, outcome }, count);
  const judged = new Map<string, number>();
  for (const result of report.cases)
    for (const check of result.checks) judged.set(`${check.id}\n${check.outcome}`, (judged.get(`${check.id}\n${check.outcome}`) ?? 0) + 1);
  for (const [both, count] of judged) {
    const [check = '', outcome = ''] = both.split('\n');
    list.add('run_checks', { ...run, check, outcome }, count);
  }
  for (const finding of report.findings) list.add('run_findings', { ...run, check: finding.id }, finding.count);
  list.add('run_verdict', { ...run, verdict: report.verdict }, 1);
  list.add('run_passed', run, report.verdict === 'passed' ? 1 : 0);
  list.add('run_duration_seconds', run, report.durationMs / 1000);
  list.add('run_requests', run, report.requests);
  const since = report.sinceBaseline;
  if (since !== undefined)
    for (const [change, changes] of [
      ['new', since.newFailures],
      ['fixed', since.fixed],
      ['still-failing', since.stillFailing],
      ['newly-not-judged', since.newlyNotJudged],
    ] as const)
      list.add('run_since_baseline_cases', { ...run, change }, changes.length);
  const load = report.load;
  if (load === undefined) return list.series;
  const profile = { ...run, profile: load.profile.name };
  for (const [index, stage] of load.stages.entries()) {
    // The pressure step is named, not numbered: a dashboard's stage 1, 2... stay the profile's own stages.
    const labels = { ...profile, stage: stage.pressure === undefined ? String(index + 1) : 'pressure' };
    addStage(list, labels, stage.metrics);
    list.add('load_thresholds_breached', labels, stage.breached.length);
  }
  for (const comparison of load.baseline?.comparisons ?? []) {
    const labels = { ...profile, metric: comparison.metric };
    list.add('load_baseline_change_ratio', labels, comparison.change);
    list.add('load_baseline_regressed', labels, comparison.regressed ? 1 : 0);
  }
  return list.series;
}
