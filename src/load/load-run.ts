/** A whole load run: safety first (production, one verified request), then warm-up, the stages, and the verdict as checks. */
import { HttpClient, type HttpClientOptions } from '../http/client.js';
import { preflight } from '../http/preflight.js';
import { makeRedactor } from '../http/credentials.js';
import { productionMark } from '../loader/config.js';
import type { Contract } from '../loader/contract.js';
import { RunError } from '../model/errors.js';
import type { LoadListener, LoadMetrics, LoadProfile, LoadReport, LoadStage, RawLoadRun, Ramp } from '../model/load.js';
import type { CheckResult } from '../model/results.js';
import { aggregateRuns, throughputOf } from './aggregate.js';
import { baselineChecks, compareWithBaseline } from './baseline.js';
import { runStage, type StageOptions } from './runner.js';
import { ResponseSampler } from './sampler.js';
import { judgeAll, loadCheck, thresholdChecks, type ThresholdVerdict } from './thresholds.js';

/** A ramp stage holds only when it reaches this share of its target rate. */
const RATE_HELD_SHARE = 0.9;

/** What a load run needs besides the profile. */
export interface LoadRunOptions {
  profile: LoadProfile;
  /** The HTTP options of the verified request (base URL, key, CA, bounds). */
  http: HttpClientOptions;
  contract: Contract;
  allowProductionLoad: boolean;
  /** Turns sampled conformance off whatever the profile says (benchmarks only). */
  samplingOff?: boolean;
  listener?: LoadListener;
  signal?: AbortSignal;
}

/** A load run's result: the report part and its checks. */
export interface LoadOutcome {
  report: LoadReport;
  checks: CheckResult[];
}

/** Refuses load against a base URL the profile marks as production, unless explicitly allowed. */
export function refuseProduction(profile: LoadProfile, baseUrl: string, allowed: boolean): void {
  const mark = productionMark(baseUrl, profile.production);
  if (mark !== undefined && !allowed) {
    throw new RunError('ERR_CONFIG', `${baseUrl} is marked production in ${profile.file} (${mark}); refusing to load it without --allow-production-load`);
  }
}

function requestsOf(run: RawLoadRun): number {
  const sent = run.autocannon['totalRequests'];
  return typeof sent === 'number' ? sent : 0;
}

/** The target rates of the stages: one stage at the profile's rate, or the ramp's steps. */
function stageRates(profile: LoadProfile): Array<number | undefined> {
  if (!profile.ramp) return [profile.rate];
  const rates: number[] = [];
  for (let rate = profile.ramp.from; rate <= profile.ramp.to; rate += profile.ramp.step) rates.push(rate);
  return rates;
}

/** The rps a stage must reach: a ramp stage holds only near its target rate. */
function rpsFloor(profile: LoadProfile, rate: number | undefined): number {
  return profile.ramp && rate !== undefined ? Math.floor(rate * RATE_HELD_SHARE) : 0;
}

/** The capacity check of a ramp: did the rate the service must hold hold? Errored when the ramp ended before reaching it. */
function capacityCheck(profile: LoadProfile, ramp: Ramp, held: number | undefined, breach: LoadStage | undefined): CheckResult {
  const required = ramp.require ?? ramp.from;
  const heldText = held === undefined ? 'no stage held' : `the highest rate that held is ${held}/s`;
  const breachText = breach === undefined ? '' : `; ${breach.rate ?? 0}/s broke ${breach.breached.join(', ')}`;
  const outcome = breach !== undefined && (breach.rate ?? 0) <= required ? 'failed' : (held ?? 0) >= required ? 'passed' : 'errored';
  const ended = outcome === 'errored' ? ` (the ramp ended before ${required}/s: duration, request budget or Ctrl-C)` : '';
  const source = profile.thresholdSources.rps ?? { file: profile.file, line: 1, column: 1 };
  return loadCheck(profile, 'capacity', `holds at least ${required}/s`, source, outcome, `${heldText}${breachText}${ended}`);
}

/** Judges the stages: a constant profile by its one stage; a ramp by the first breach at or below the rate it must hold. */
export function judgeStages(profile: LoadProfile, stages: LoadStage[], violations: LoadReport['violations']): { metrics: LoadMetrics; checks: CheckResult[]; highestRateHeld?: number } {
  const verdictsOf = (stage: LoadStage): ThresholdVerdict[] => judgeAll(profile, stage.metrics, rpsFloor(profile, stage.rate));
  for (const stage of stages) stage.breached = verdictsOf(stage).filter((v) => !v.ok).map((v) => v.metric);
  const last = stages.at(-1) as LoadStage;
  if (!profile.ramp) return { metrics: last.metrics, checks: thresholdChecks(profile, verdictsOf(last), violations) };
  const breachIndex = stages.findIndex((s) => s.breached.length > 0);
  const breach = breachIndex === -1 ? undefined : stages[breachIndex];
  const held = breachIndex === -1 ? stages : stages.slice(0, breachIndex);
  const highestRateHeld = held.at(-1)?.rate;
  // A breach at or below the rate the service must hold fails the thresholds; one above it only marks the capacity.
  const mustHold = breach !== undefined && (breach.rate ?? 0) <= (profile.ramp.require ?? profile.ramp.from);
  const judged = mustHold ? (breach as LoadStage) : (held.at(-1) ?? last);
  const checks = [...thresholdChecks(profile, verdictsOf(judged), violations, ` at ${judged.rate ?? 0}/s`), capacityCheck(profile, profile.ramp, highestRateHeld, breach)];
  return highestRateHeld === undefined ? { metrics: judged.metrics, checks } : { metrics: judged.metrics, checks, highestRateHeld };
}

/** Builds the report part and the checks from measured (or merged) stages. */
export function buildLoadOutcome(profile: LoadProfile, baseUrl: string, stages: LoadStage[], mergedRuns: number): LoadOutcome {
  const violations = stages.flatMap((s) => s.raw.flatMap((r) => r.violations));
  const judged = judgeStages(profile, stages, violations);
  const report: LoadReport = {
    profile,
    baseUrl,
    metrics: judged.metrics,
    stages,
    violations,
    interrupted: stages.some((s) => s.raw.some((r) => r.interrupted)),
    percentiles: judged.metrics.percentiles,
    throughput: throughputOf(stages),
    mergedRuns,
  };
  if (judged.highestRateHeld !== undefined) report.highestRateHeld = judged.highestRateHeld;
  return { report, checks: judged.checks };
}

/** Adds the comparison with an earlier run to an outcome (report part and checks). */
export function addBaseline(outcome: LoadOutcome, baseline: LoadMetrics, file: string, tolerance: number): void {
  const comparisons = compareWithBaseline(baseline, outcome.report.metrics, tolerance);
  outcome.report.baseline = { file, tolerance, comparisons };
  outcome.checks.push(...baselineChecks(outcome.report.profile, comparisons, file, tolerance));
}

/** Runs a profile against the service: refuses production, verifies one request, warms up, then the stages. */
export async function executeLoad(options: LoadRunOptions): Promise<LoadOutcome> {
  const { profile, http } = options;
  refuseProduction(profile, http.baseUrl, options.allowProductionLoad);
  const client = new HttpClient({ ...http, connections: 1 });
  try {
    await preflight(client, options.contract.operations.get('listPets')?.path ?? '/pets', true);
  } finally {
    await client.close();
  }
  const redact = makeRedactor(http.apiKey);
  const common: Omit<StageOptions, 'durationSeconds' | 'maxRequests'> = {
    baseUrl: http.baseUrl,
    apiKey: http.apiKey,
    profileName: profile.name,
    queries: profile.queries,
    connections: profile.connections,
    timeoutSeconds: profile.timeout,
    ...(options.listener ? { listener: options.listener } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  let budget = profile.maxRequests;
  const firstRate = stageRates(profile)[0];
  if (profile.warmup > 0 && options.signal?.aborted !== true) {
    const warm = await runStage({ ...common, profileName: `${profile.name} (warm-up)`, ...(firstRate === undefined ? {} : { rate: firstRate }), durationSeconds: profile.warmup, maxRequests: budget });
    budget -= requestsOf(warm);
  }
  const deadline = performance.now() + profile.duration * 1000;
  const stages: LoadStage[] = [];
  for (const rate of stageRates(profile)) {
    const remainingSeconds = (deadline - performance.now()) / 1000;
    if (budget <= 0 || remainingSeconds <= 0 || options.signal?.aborted === true) break;
    const sampler = options.samplingOff === true ? undefined : new ResponseSampler(profile.sampling, options.contract, redact);
    const raw = await runStage({
      ...common,
      ...(rate === undefined ? {} : { rate }),
      ...(sampler ? { sampler } : {}),
      durationSeconds: Math.min(profile.ramp?.stageDuration ?? profile.duration, remainingSeconds),
      maxRequests: budget,
    });
    budget -= requestsOf(raw);
    const stage: LoadStage = { metrics: aggregateRuns([raw], http.baseUrl), breached: [], raw: [raw] };
    if (rate !== undefined) stage.rate = rate;
    stage.breached = judgeAll(profile, stage.metrics, rpsFloor(profile, rate)).filter((v) => !v.ok).map((v) => v.metric);
    stages.push(stage);
    if (stage.breached.length > 0 || raw.interrupted) break;
  }
  if (stages.length === 0) throw new RunError('ERR_CONFIG', `load profile ${profile.name}: nothing was measured (interrupted during warm-up, or the warm-up used the whole request budget)`);
  options.listener?.onLoadEnd?.();
  return buildLoadOutcome(profile, http.baseUrl, stages, 1);
}
