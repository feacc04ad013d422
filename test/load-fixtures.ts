/** Fixtures of the load tests. */
import { encodeHistogram, latencyHistogram } from '../src/load/latency-histogram.js';
import { RAW_LOAD_FORMAT, type LoadMetrics, type LoadProfile, type LoadReport, type RawLoadRun } from '../src/model/load.js';

/** The counts of a run in which nothing failed, was late or was left in flight. */
const NO_FAILURES = {
  errors: 0,
  timeouts: 0,
  resets: 0,
  inFlightAtStop: 0,
  behindSchedule: 0,
  connectionRetries: 0,
  non2xx: 0,
  rateLimited: 0,
  mismatches: 0,
};

/** Metrics of a clean run: 1000 requests/s for 10 s, no failures; override what a test needs. */
export function metricsOf(overrides: Partial<LoadMetrics> = {}): LoadMetrics {
  return {
    requests: 10_000,
    responses: 10_000,
    durationSeconds: 10,
    rps: 1000,
    sendRate: 1000,
    latency: { p50: 10, p90: 20, p99: 50, max: 90, mean: 12 },
    latencyFrom: overrides.targetRate === undefined ? 'actual-send' : 'scheduled-send',
    ...NO_FAILURES,
    sampled: 200,
    statusCodes: { '200': 10_000 },
    errorCauses: [],
    percentiles: [
      { p: 50, ms: 10 },
      { p: 90, ms: 20 },
      { p: 99, ms: 50 },
      { p: 100, ms: 90 },
    ],
    ...overrides,
  };
}

/** Where the p99 threshold of profileOf's profile is declared. */
export const P99_SOURCE = { file: 'scenarios/load/demo.yaml', line: 9, column: 3 };

/** A profile as the loader returns it: bounds p99 at 50 ms unless told otherwise. */
export function profileOf(overrides: Partial<LoadProfile> = {}): LoadProfile {
  return {
    name: 'demo',
    title: 'Demo',
    file: 'scenarios/load/demo.yaml',
    connections: 4,
    duration: 2,
    maxRequests: 10_000,
    warmup: 0,
    timeout: 5,
    queries: [{ weight: 1 }],
    sampling: { first: 10, every: 10 },
    thresholds: { p99: { max: 50 } },
    thresholdSources: { p99: P99_SOURCE },
    production: [],
    baselineTolerance: 0.1,
    ...overrides,
  };
}

/** A raw run that counted nothing (an empty histogram), for tests to fill in. */
export function rawRunOf(overrides: Partial<RawLoadRun> = {}): RawLoadRun {
  return {
    format: RAW_LOAD_FORMAT,
    startedAt: '2026-11-22T10:00:00.000Z',
    durationSeconds: 1,
    requests: 0,
    responses: 0,
    ...NO_FAILURES,
    sampled: 0,
    statusCodes: {},
    errorCauses: [],
    latencyHistogram: encodeHistogram(latencyHistogram()),
    maxLatencyMicros: 0,
    violations: [],
    interrupted: false,
    throughput: [],
    ...overrides,
  };
}

/** A load result with these figures, as the run checks see it. */
export function loadReportOf(profile: LoadProfile, metrics: LoadMetrics, extra: Partial<LoadReport> = {}): LoadReport {
  return {
    profile,
    baseUrl: 'http://127.0.0.1:9/v1',
    metrics,
    stages: [],
    violations: [],
    interrupted: false,
    percentiles: [],
    throughput: [],
    mergedRuns: 1,
    ...extra,
  };
}

/** A light nightly load for whole runs: its request budget (300) ends it in a fraction of a second, where smoke and nightly take seconds to minutes. */
export const LIGHT_PROFILE = [
  'title: a light nightly',
  'connections: 2',
  'duration: 3',
  'maxRequests: 300',
  'timeout: 3',
  'queries: [{ weight: 1 }]',
  'thresholds: { errors: { max: 0 } }',
  '',
].join('\n');
