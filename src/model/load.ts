/** Load profiles and load results: plain data, as profiles declare them and report.json stores them. */
import type { SourceLocation } from './source-location.js';

/** Latency metrics in milliseconds (µs resolution), read from the HDR histogram. */
export type LatencyMetric = 'p50' | 'p90' | 'p99' | 'max';

/** Metrics that count requests (absolute, or as a share of all requests with `maxRate`). */
export type CountMetric = 'errors' | 'timeouts' | 'resets' | 'non2xx' | 'mismatches' | 'rateLimited';

/** Every metric a threshold may name. */
export type Metric = LatencyMetric | CountMetric | 'rps';

/** The most worker threads a profile or flag may ask for (as load-profile.schema.json says). */
export const MAX_WORKERS = 64;

/** Every metric, in the order reports list them. */
export const METRICS: readonly Metric[] = [
  'p50',
  'p90',
  'p99',
  'max',
  'rps',
  'errors',
  'timeouts',
  'resets',
  'non2xx',
  'mismatches',
  'rateLimited',
];

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

/**
 * A short step as fast as the service answers on more connections (`pressure` in a profile): a store that breaks only with
 * many requests in flight (an empty page, an error past a queue) shows it there, whatever the profile's rate.
 */
export interface PressureStep {
  connections: number;
  /** Seconds, taken from the profile's duration. */
  duration: number;
}

/** The metrics a pressure step is held to: what it counted, not its latency or throughput (at full speed, those are its own). */
export const PRESSURE_METRICS: readonly Metric[] = ['errors', 'timeouts', 'resets', 'non2xx', 'mismatches', 'rateLimited'];

/** The trend check's settings (`thresholds.trend`): how the last window of a stage may differ from its first. */
export interface TrendSettings {
  /** false when the profile turned the check off (`trend: false`). */
  enabled: boolean;
  /** Each window's share of the stage: 0.25 compares the first quarter with the last. */
  window: number;
  /**
   * The percentiles compared: p50 and p90 by default. A few seconds' p99 is decided by a handful of requests, which one
   * stall of a busy machine moves; a long window (a soak's) judges it soundly.
   */
  percentiles: ReadonlyArray<'p50' | 'p90' | 'p99'>;
  /** The share by which the last window's percentiles may exceed the first's (0.5 = 50 %). */
  latency: number;
  /** Milliseconds of growth allowed on top of that share: the noise of a shared machine, not the service. */
  slackMs: number;
  /** The share by which the last window's throughput may fall below the first's (0.1 = 10 %). */
  throughput: number;
}

/** The trend check as a profile that does not tune it gets it. */
export const DEFAULT_TREND: TrendSettings = {
  enabled: true,
  window: 0.25,
  percentiles: ['p50', 'p90'],
  latency: 0.5,
  slackMs: 5,
  throughput: 0.1,
};

/** A window shorter than this is not judged: a few seconds do not average out collection pauses and scheduling. */
export const MIN_TREND_WINDOW_SECONDS = 5;

/** A load profile as loaded from scenarios/load/*.yaml (validated against schemas/load-profile.schema.json). */
export interface LoadProfile {
  name: string;
  title: string;
  /** Where the profile was read from, for messages and check sources. */
  file: string;
  connections: number;
  /** Worker threads that generate the load; absent: half the cores, at most 8 and at most one per connection. */
  workers?: number;
  /** Seconds of measured load (the whole ramp for a stress profile): a hard ceiling. */
  duration: number;
  /** Requests of the whole run, warm-up included: a hard ceiling. */
  maxRequests: number;
  /** Target requests per second across all connections; absent: as fast as the service answers. */
  rate?: number;
  ramp?: Ramp;
  /** A short step at the end of the measured load on more connections, at full speed; its seconds are taken from `duration`. */
  pressure?: PressureStep;
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
  /** The trend check's settings; absent (a report of an earlier version): the defaults. */
  trend?: TrendSettings;
  /** Where `thresholds.trend` was declared, when it was. */
  trendSource?: SourceLocation;
  /** Where the ramp was declared (the capacity it must hold). */
  rampSource?: SourceLocation;
  /** Where the pressure step was declared (what load.pressure judges). */
  pressureSource?: SourceLocation;
  /** Base URLs (or origins) that are production: load against them needs --allow-production-load. */
  production: string[];
  /** Relative tolerance of a baseline comparison (0.1 = 10 %). */
  baselineTolerance: number;
}

/** Failed requests that share one cause, e.g. `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`. */
export interface ErrorCause {
  cause: string;
  count: number;
}

/** What a stage counted: every request sent is a response, an error (a timeout among them) or in flight at the stop. */
export interface LoadCounts {
  /** Requests sent: responses + errors (timeouts included) + inFlightAtStop. */
  requests: number;
  /** Responses received (any status). */
  responses: number;
  /** Failed requests: connection failures (refused, reset, TLS, protocol) and timeouts. */
  errors: number;
  /** Failed requests (among `errors`) that got no complete response within the profile's timeout. */
  timeouts: number;
  /**
   * Failed requests (among `errors`) whose connection the server reset or closed after the request was written and before
   * its complete response, the connection not having been idle: a fault of the service under load, never sent again.
   */
  resets: number;
  /** Requests still unanswered when the stage stopped; their age is in the latency histogram as a lower bound. */
  inFlightAtStop: number;
  /** Requests due under the target rate but never sent, every connection being busy; their wait is in the latency histogram. */
  behindSchedule: number;
  /** Requests sent once more on a fresh connection after the server closed an idle kept-alive one before any response byte (not errors). */
  connectionRetries: number;
  /** Answers of any status outside 2xx, the rate-limiting ones (429, 503) excepted. */
  non2xx: number;
  /**
   * Answers 429 or 503: the server pacing its clients, never a verdict on the contract (reading-the-contract); bounded only
   * where the profile says so. A Retry-After in one paused its connection. Absent in a run of an earlier version.
   */
  rateLimited: number;
  /** Sampled responses that broke the contract, and every response whose body exceeded the size cap. */
  mismatches: number;
  sampled: number;
  statusCodes: Record<string, number>;
  errorCauses: ErrorCause[];
}

/** The counts that add up when runs merge, in the order reports list them. */
export const ADDED_COUNTS = [
  'requests',
  'responses',
  'errors',
  'timeouts',
  'resets',
  'inFlightAtStop',
  'behindSchedule',
  'connectionRetries',
  'non2xx',
  'rateLimited',
  'mismatches',
  'sampled',
] as const;

/** One window of a stage as measured (the first or the last part, for the trend check): figures that add up like a run's. */
export interface RawWindow {
  /** Seconds from the stage's start; the last window ends where the stage did. */
  from: number;
  to: number;
  /** Requests whose intended send time fell in the window: the schedule under a target rate, the sends without one. */
  offered: number;
  /** Mean requests in flight (sampled every 50 ms): the concurrency an open throttle offers. */
  concurrency: number;
  /**
   * The share of the window the generator's event loop was busy (0..1; of several workers, the busiest): near 1, the
   * generator was the limit.
   */
  generatorBusy: number;
  /** Responses that completed in the window. */
  responses: number;
  /**
   * Time at the service in µs, from each request's sending (not from its intended time: a backlog of the generator's under a
   * rate the service cannot hold is the thresholds' to judge, not a trend): responses, timeouts and requests left at the stop.
   */
  latencyHistogram: string;
  maxLatencyMicros: number;
}

/**
 * The clock a latency is measured from: `scheduled-send`, when the schedule of a target rate meant the request to go out
 * (coordinated omission corrected: a wait for a free connection is counted); `actual-send`, when it went out.
 */
export type LatencyClock = 'scheduled-send' | 'actual-send';

/** The figures of one window of a stage, as the trend check compares them. */
export interface WindowMetrics {
  from: number;
  to: number;
  /** Requests per second the schedule (or the throttle) offered in the window. */
  offeredRate: number;
  /** Mean requests in flight. */
  concurrency: number;
  /** The share of the window the generator's event loop was busy (the busiest worker's, the busiest machine's). */
  generatorBusy: number;
  responses: number;
  rps: number;
  latency: Record<'p50' | 'p90' | 'p99', number>;
  /** Always the actual send: the trend compares the service's own time per request, not a wait the generator caused. */
  latencyFrom: 'actual-send';
}

/** The metrics a run produced, as thresholds judge them. */
export interface LoadMetrics extends LoadCounts {
  durationSeconds: number;
  /** Responses per second. */
  rps: number;
  /** Requests sent per second (what a target rate controls). */
  sendRate: number;
  /** The target rate, when the profile sets one. */
  targetRate?: number;
  /** Latency in ms, read from a histogram recorded in µs (so 0.213 is 213 µs). */
  latency: Record<LatencyMetric | 'mean', number>;
  /** The clock `latency` and `percentiles` are measured from: the scheduled send with a target rate, else the actual send. */
  latencyFrom: LatencyClock;
  /** Latency (ms) at every percentile the merged histogram reports, for the percentile chart. */
  percentiles: Array<{ p: number; ms: number }>;
  /** The stage's first and last windows, when it was long enough for the trend check to measure them. */
  windows?: { first: WindowMetrics; last: WindowMetrics };
}

/** A sampled response that broke the contract, kept as evidence. */
export interface SampleViolation {
  target: string;
  status: number;
  problems: string[];
  bodyExcerpt: string;
}

/** The store invariants every listPets answer under load is held to (the load's counterparts of store.listing-*). */
export const LISTING_INVARIANTS = ['complete', 'limit', 'status'] as const;
/** One of the store invariants judged on listings under load. */
export type ListingInvariant = (typeof LISTING_INVARIANTS)[number];

/** A listing under load that contradicts what the run holds, kept as evidence (the key redacted). */
export interface ListingContradiction {
  invariant: ListingInvariant;
  /** The request line as sent, e.g. `GET /v1/pets?limit=100` (no header, so no key). */
  request: string;
  status: number;
  /** What contradicts, in words: the pets missing (and where the run saw each), the count over the limit, the wrong status. */
  message: string;
  bodyExcerpt: string;
}

/**
 * The listings of a stage judged against the store invariants (the listPets answers 200 the judging budget allowed, whose
 * body is a JSON array), held to the pets the run saw before the load (those past the consistency window when sent).
 */
export interface ListingJudgement {
  /** Pets the run saw before the load that the listings were held to (each worker holds them all: the largest). */
  knownPets: number;
  /** Listings answered 200: those judged, and those the judging budget let go. */
  answered: number;
  /** Listings answered 200 with an array and judged by every invariant. */
  judged: number;
  /** Judged listings shorter than their limit (the only ones that must hold every matching pet). */
  shortPages: number;
  /** Short pages sent while some known pet of their query was past its window: those listing-complete held to a pet. */
  heldToKnown: number;
  /** Listings that contradicted each invariant. */
  contradictions: Record<ListingInvariant, number>;
  evidence: ListingContradiction[];
}

/**
 * The format of a raw run in report.json; `merge` refuses raw runs of another format. /3 counts `resets` apart (a /2 run
 * sent a reset request again and counted it as a connection retry, so its counts do not add up with these).
 */
export const RAW_LOAD_FORMAT = 'petstore-load-raw/3';

/** One machine's raw measurement of one stage: exact counts and an HDR latency histogram in µs, enough to merge exactly. */
export interface RawLoadRun extends LoadCounts {
  format: typeof RAW_LOAD_FORMAT;
  startedAt: string;
  durationSeconds: number;
  /** Target rate of this run or stage, when there was one. */
  rate?: number;
  /** Worker threads that generated this run on its machine (their runs combined exactly); absent: one. */
  workers?: number;
  /**
   * Latency in µs (responses, timeouts at their age, requests in flight or behind schedule at the stop), HDR histogram as
   * compressed base64.
   */
  latencyHistogram: string;
  /** The largest latency recorded, in µs (exact; the histogram's own max is rounded to its precision). */
  maxLatencyMicros: number;
  violations: SampleViolation[];
  interrupted: boolean;
  /** Responses per second over the run: `t` is the end of each second (the last one may be partial), from the run's start. */
  throughput: Array<{ t: number; rps: number }>;
  /** The first and the last window of the stage (the trend check's), when it was given a window length. */
  windows?: { first: RawWindow; last: RawWindow };
  /** The stage's listings judged against the store invariants; absent: not judged (a warm-up, or a run of an earlier version). */
  listings?: ListingJudgement;
}

/** One stage of a run: the whole run for a constant profile, one rate step for a ramp, or the profile's pressure step. */
export interface LoadStage {
  rate?: number;
  /** The profile's pressure step, and its connections: judged by PRESSURE_METRICS (check load.pressure), never the judged stage. */
  pressure?: { connections: number };
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
  /** Beyond the tolerance, and beyond the noise both runs' samples show. */
  regressed: boolean;
  /** The 95 % intervals of the figure that both runs' samples support, when they hold enough samples. */
  ranges?: { baseline: [number, number]; current: [number, number] };
  /** Why the figure cannot be told from noise (too few samples in one run or both): never a regression then. */
  tooFewSamples?: string;
}

/** The load part of report.json: plain JSON, enough to merge and re-judge without the profile file. */
export interface LoadReport {
  /** The profile as run, thresholds included, so `merge` judges by the same bounds. */
  profile: LoadProfile;
  baseUrl: string;
  /**
   * Metrics of the stage the thresholds judged (the whole run; for a ramp, the first breach it had to hold or the last
   * stage that held).
   */
  metrics: LoadMetrics;
  stages: LoadStage[];
  /** For a ramp: the highest target rate whose stage broke no threshold. */
  highestRateHeld?: number;
  /** For a ramp: the target rate of the stage whose metrics are judged. */
  judgedRate?: number;
  violations: SampleViolation[];
  /**
   * Every measured stage's listings judged against the store invariants, and the rule that chose them; absent: none was
   * judged (a report of an earlier version).
   */
  listings?: ListingJudgement & { rule: string };
  interrupted: boolean;
  /** Latency at each percentile of the judged stage (what the HTML report's percentile chart draws). */
  percentiles: Array<{ p: number; ms: number }>;
  /** Responses per second over the whole run, machines added up (what the throughput chart draws). */
  throughput: Array<{ t: number; rps: number }>;
  /** How many runs (machines) were merged into this result. */
  mergedRuns: number;
  baseline?: {
    file: string;
    tolerance: number;
    comparisons: BaselineComparison[];
    /** How the baseline's load differs from this one (profile, base URL, suite version, request mix): then nothing is compared. */
    notComparable?: string[];
  };
}

/** Live progress of a load run, once a second. */
export interface LoadProgress {
  profile: string;
  elapsedSeconds: number;
  plannedSeconds: number;
  requests: number;
  responses: number;
  errors: number;
  /** Responses in the last second. */
  rps: number;
  rate?: number;
}

/** A listener for load progress (the live display on a TTY). */
export interface LoadListener {
  onLoadProgress?(progress: LoadProgress): void;
}

/** Latency for people: µs digits under 10 ms, fewer above (0.213 ms, 12.35 ms, 1005 ms). */
export function formatMs(ms: number): string {
  const digits = ms < 10 ? 3 : ms < 100 ? 2 : ms < 1000 ? 1 : 0;
  return `${Number(ms.toFixed(digits))} ms`;
}
