/**
 * A load compared with its baseline beyond noise: each figure is an interval its own samples support (a percentile's from
 * both runs' histograms, throughput's from their seconds, the error rate's from their counts), and a regression is
 * called only where this run's interval lies past the baseline's by more than the tolerance. Two smoke runs of the same
 * server minutes apart differ in p99 by hundreds of percent on a shared machine; that is noise, not a regression.
 */
import type { Histogram } from 'hdr-histogram-js';
import { compareWithBaseline, errorRate } from '../checks/load-checks.js';
import type { Baseline } from '../model/check.js';
import type { BaselineComparison, LoadMetrics, LoadReport, LoadStage } from '../model/load.js';
import { mergeHistograms, microsToMs } from './latency-histogram.js';

/** z of a two-sided 95 % interval. */
const Z = 1.96;
/** Latency growth below this (ms) is never a regression: a shared machine's scheduling, not the service. */
const LATENCY_SLACK_MS = 1;
/** Error rate growth below this is never a regression. */
const ERROR_RATE_SLACK = 0.001;
/** A percentile is told from noise only with this many samples on each side of it (p99: 1,000 responses). */
const MIN_TAIL_SAMPLES = 10;
/** Throughput is told from noise only over this many whole seconds. */
const MIN_SECONDS = 5;
/** The error rate is told from noise only over this many requests. */
const MIN_REQUESTS = 100;

/** What one run offers a comparison: its judged stage's histogram, its seconds of throughput, its counts. */
interface Sample {
  histogram: Histogram | undefined;
  seconds: number[];
}

/** The stage a report's metrics are those of: the judged rate's for a ramp, else the last. */
function judgedStage(load: LoadReport): LoadStage | undefined {
  return load.stages.find((s) => load.judgedRate !== undefined && s.rate === load.judgedRate) ?? load.stages[load.stages.length - 1];
}

/** A report's judged stage as a sample; a report without raw histograms (an earlier version's) has none. */
function sampleOf(load: LoadReport): Sample {
  const stage = judgedStage(load);
  const raw = stage?.raw ?? [];
  let histogram: Histogram | undefined;
  try {
    histogram = raw.length === 0 ? undefined : mergeHistograms(raw.map((r) => r.latencyHistogram));
  } catch {
    histogram = undefined;
  }
  // Each machine's seconds added up; the last second of a run is partial and left out.
  const seconds: number[] = [];
  for (const run of raw) for (const [i, second] of run.throughput.slice(0, -1).entries()) seconds[i] = (seconds[i] ?? 0) + second.rps;
  return { histogram, seconds };
}

type Range = [number, number];

/** The interval of a percentile (q in 0..1) by the order statistics of n samples; undefined with too few. */
function percentileRange(histogram: Histogram | undefined, q: number): Range | undefined {
  const n = histogram?.totalCount ?? 0;
  if (histogram === undefined || n * Math.min(q, 1 - q) < MIN_TAIL_SAMPLES) return undefined;
  const half = Z * Math.sqrt((q * (1 - q)) / n);
  const at = (p: number): number => microsToMs(histogram.getValueAtPercentile(Math.min(100, Math.max(0, p * 100))));
  return [at(q - half), at(q + half)];
}

/** The interval of the mean of per-second throughput; undefined with too few seconds. */
function throughputRange(seconds: readonly number[]): Range | undefined {
  if (seconds.length < MIN_SECONDS) return undefined;
  const mean = seconds.reduce((a, b) => a + b, 0) / seconds.length;
  const variance = seconds.reduce((a, b) => a + (b - mean) ** 2, 0) / (seconds.length - 1);
  const half = (Z * Math.sqrt(variance)) / Math.sqrt(seconds.length);
  return [round(mean - half), round(mean + half)];
}

/** The Wilson interval of a share of failed requests; undefined with too few requests. */
function errorRateRange(metrics: LoadMetrics): Range | undefined {
  const n = metrics.requests;
  if (n < MIN_REQUESTS) return undefined;
  const p = errorRate(metrics);
  const centre = (p + (Z * Z) / (2 * n)) / (1 + (Z * Z) / n);
  const half = (Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n))) / (1 + (Z * Z) / n);
  return [round(Math.max(0, centre - half), 1e6), round(Math.min(1, centre + half), 1e6)];
}

function round(value: number, scale = 1000): number {
  return Math.round(value * scale) / scale;
}

const NEEDS: Record<BaselineComparison['metric'], string> = {
  p50: `${2 * MIN_TAIL_SAMPLES} responses`,
  p99: `${MIN_TAIL_SAMPLES * 100} responses`,
  rps: `${MIN_SECONDS} whole seconds`,
  errorRate: `${MIN_REQUESTS} requests`,
};

/** A point comparison held to the noise: a regression only where this run's interval lies past the baseline's beyond the tolerance. */
function beyondNoise(point: BaselineComparison, ranges: [Range | undefined, Range | undefined], tolerance: number): BaselineComparison {
  const { metric } = point;
  const [before, now] = ranges;
  if (before === undefined || now === undefined) {
    const which = before === undefined ? (now === undefined ? 'both runs have' : 'the baseline has') : 'this run has';
    return {
      ...point,
      regressed: false,
      tooFewSamples: `${which} too few samples to tell ${metric} from noise (it needs ${NEEDS[metric]})`,
    };
  }
  let beyond: boolean;
  if (metric === 'rps') beyond = now[1] < before[0] * (1 - tolerance);
  else if (metric === 'errorRate') beyond = now[0] > before[1] * (1 + tolerance) + ERROR_RATE_SLACK;
  else beyond = now[0] > before[1] * (1 + tolerance) + LATENCY_SLACK_MS;
  return { ...point, regressed: point.regressed && beyond, ranges: { baseline: before, current: now } };
}

/** Every comparison of a load with its baseline; none where the baseline's run is not comparable. */
export function compareLoads(baseline: Baseline, current: LoadReport): BaselineComparison[] {
  if ((baseline.notComparable ?? []).length > 0) return [];
  // A baseline given as figures alone (no report to read its samples from) can never be told from noise.
  const was = baseline.load === undefined ? { histogram: undefined, seconds: [] } : sampleOf(baseline.load);
  const now = sampleOf(current);
  const { tolerance } = baseline;
  const ranges: Record<BaselineComparison['metric'], [Range | undefined, Range | undefined]> = {
    p50: [percentileRange(was.histogram, 0.5), percentileRange(now.histogram, 0.5)],
    p99: [percentileRange(was.histogram, 0.99), percentileRange(now.histogram, 0.99)],
    rps: [throughputRange(was.seconds), throughputRange(now.seconds)],
    errorRate: [errorRateRange(baseline.metrics), errorRateRange(current.metrics)],
  };
  return compareWithBaseline(baseline.metrics, current.metrics, tolerance).map((point) =>
    beyondNoise(point, ranges[point.metric], tolerance),
  );
}
