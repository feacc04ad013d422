/** Load profiles and load results: plain data, as profiles declare them and report.json stores them. */
import type { SourceLocation } from './results.js';

/** Latency metrics in milliseconds, read from the HDR histogram. */
export type LatencyMetric = 'p50' | 'p90' | 'p99' | 'max';

/** Metrics that count requests (absolute, or as a share of all requests with `maxRate`). */
export type CountMetric = 'errors' | 'timeouts' | 'non2xx' | 'mismatches';

/** Every metric a threshold may name. */
export type Metric = LatencyMetric | CountMetric | 'rps';

/** Every metric, in the order reports list them. */
export const METRICS: readonly Metric[] = ['p50', 'p90', 'p99', 'max', 'rps', 'errors', 'timeouts', 'non2xx', 'mismatches'];

/** A bound on one metric: `max` (ms or count), `min` (rps) or `maxRate` (share of requests, 0..1). */
export interface Threshold {
  max?: number;
  min?: number;
  maxRate?: number;
}

/** One listPets query of the mix, chosen in proportion to its weight. */
export interface QueryMix {
  limit?: number;
  status?: 'available' | 'pending' | 'sold';
  weight: number;
}

/** Rising target rates (stress): each stage runs `stageDuration` seconds; the ramp stops at the first breach. */
export interface Ramp {
  from: number;
  to: number;
  step: number;
  stageDuration: number;
  /** The rate the service must hold; a breach at or below it fails the profile (default: `from`). */
  require?: number;
}

/** A load profile as loaded from scenarios/load/*.yaml (validated against schemas/load-profile.schema.json). */
export interface LoadProfile {
  name: string;
  title: string;
  /** Where the profile was read from, for messages and check sources. */
  file: string;
  connections: number;
  /** Seconds of measured load (the whole ramp for a stress profile): a hard ceiling. */
  duration: number;
  /** Requests of the whole run, warm-up included: a hard ceiling. */
  maxRequests: number;
  /** Target requests per second across all connections; absent: as fast as the service answers. */
  rate?: number;
  ramp?: Ramp;
  /** Seconds of unmeasured load before the measurement. */
  warmup: number;
  /** Seconds a request may take before it counts as a timeout. */
  timeout: number;
  queries: QueryMix[];
  /** Sampled conformance: always the first `first` responses, then 1 in `every` (0: none after the first). */
  sampling: { first: number; every: number };
  thresholds: Partial<Record<Metric, Threshold>>;
  /** Where each threshold was declared. */
  thresholdSources: Partial<Record<Metric, SourceLocation>>;
  /** Where the ramp was declared (the capacity it must hold). */
  rampSource?: SourceLocation;
  /** Base URLs (or origins) that are production: load against them needs --allow-production-load. */
  production: string[];
  /** Relative tolerance of a baseline comparison (0.1 = 10 %). */
  baselineTolerance: number;
}

/** The metrics a run produced, as thresholds judge them. */
export interface LoadMetrics {
  requests: number;
  /** Responses received (any status). */
  responses: number;
  durationSeconds: number;
  rps: number;
  latency: Record<LatencyMetric | 'mean', number>;
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
  sampled: number;
  statusCodes: Record<string, number>;
  /** Latency (ms) at every percentile the merged histogram reports, for the percentile chart. */
  percentiles: Array<{ p: number; ms: number }>;
}

/** A sampled response that broke the contract, kept as evidence. */
export interface SampleViolation {
  target: string;
  status: number;
  problems: string[];
  bodyExcerpt: string;
}

/**
 * One machine's raw measurement: autocannon's raw result (histograms encoded as compressed base64)
 * plus the suite's own counts. `merge` aggregates several of these.
 */
export interface RawLoadRun {
  /** autocannon's raw result (skipAggregateResult), exactly as it returned it. */
  autocannon: Record<string, unknown>;
  /** Target rate of this run or stage, when there was one. */
  rate?: number;
  sampled: number;
  mismatches: number;
  violations: SampleViolation[];
  interrupted: boolean;
  /** Responses in each second of the run (t: seconds from its start), for the throughput chart. */
  throughput?: Array<{ t: number; rps: number }>;
}

/** One stage of a run: the whole run for a constant profile, one rate step for a ramp. */
export interface LoadStage {
  rate?: number;
  metrics: LoadMetrics;
  /** Metrics whose threshold this stage broke. */
  breached: Metric[];
  raw: RawLoadRun[];
}

/** How one metric compares with the baseline. */
export interface BaselineComparison {
  metric: 'p50' | 'p99' | 'rps' | 'errorRate';
  baseline: number;
  current: number;
  /** current / baseline - 1, signed; positive is slower for latency, faster for rps. */
  change: number;
  regressed: boolean;
}

/** The load part of report.json: plain JSON, enough to merge and re-judge without the profile file. */
export interface LoadReport {
  /** The profile as run, thresholds included, so `merge` judges by the same bounds. */
  profile: LoadProfile;
  baseUrl: string;
  /** Metrics of the stage the thresholds judged (the whole run; for a ramp, the first breach it had to hold or the last stage that held). */
  metrics: LoadMetrics;
  stages: LoadStage[];
  /** For a ramp: the highest target rate whose stage broke no threshold. */
  highestRateHeld?: number;
  /** For a ramp: the target rate of the stage whose metrics are judged. */
  judgedRate?: number;
  violations: SampleViolation[];
  interrupted: boolean;
  /** Latency at each percentile of the judged stage (what the HTML report's percentile chart draws). */
  percentiles: Array<{ p: number; ms: number }>;
  /** Responses per second over the whole run, machines added up (what the throughput chart draws). */
  throughput: Array<{ t: number; rps: number }>;
  /** How many runs (machines) were merged into this result. */
  mergedRuns: number;
  baseline?: { file: string; tolerance: number; comparisons: BaselineComparison[] };
}

/** Live progress of a load run, once a second. */
export interface LoadProgress {
  profile: string;
  elapsedSeconds: number;
  plannedSeconds: number;
  responses: number;
  rps: number;
  rate?: number;
}

/** A listener for load progress (the live display on a TTY). */
export interface LoadListener {
  onLoadProgress?(progress: LoadProgress): void;
}
