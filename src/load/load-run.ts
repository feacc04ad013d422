/**
 * A whole load run: one verified request, then warm-up and the stages; it measures only (engine/phases/load-report.ts has
 * the judge decide which stage is judged, the baseline and the listings). The production rule is the plan's, applied before
 * anything is sent.
 */
import type { KnownPet } from './sampler.js';
import { trendOf, trendWindowSeconds } from '../checks/load-trend.js';
import type { Client, HttpClientOptions } from '../http/client.js';
import { preflight } from '../http/preflight.js';
import { connectionOf, runRedactor } from '../http/connection.js';
import { type Contract, listPathOf } from '../model/contract.js';
import { contractRequests } from '../requests/contract-requests.js';
import { RunError } from '../model/errors.js';
import type { LoadListener, LoadProfile, LoadStage, RawLoadRun } from '../model/load.js';
import { aggregateRuns } from './aggregate.js';
import { runStage, type StageOptions } from './runner.js';
import { ResponseSampler, type SamplingSetup } from './sampler.js';
import { defaultWorkers, StageWorkers } from './stage-workers.js';

/** What a load run needs besides the profile. */
export interface LoadRunOptions {
  profile: LoadProfile;
  /** The HTTP options of the verified request (base URL, key, CA, bounds). */
  http: HttpClientOptions;
  contract: Contract;
  /** Whether a measured stage breaks the profile (the judge's word): a ramp ends at the first that does. */
  breaks: (stage: LoadStage) => boolean;
  listener?: LoadListener;
  signal?: AbortSignal;
  /**
   * The pets the run saw (by id) as they stand when a stage starts (the rest of each one's consistency window counted from
   * then): every sampled listing must show them unchanged, every listing shorter than its limit must hold those that match.
   */
  knownPets?: () => ReadonlyArray<readonly [string, KnownPet]>;
  /** Opens the client of the verified request: the run's one factory, so that its exchange reaches the store model too. */
  open: () => Pick<Client, 'send' | 'base' | 'urlFor' | 'close'>;
  /** The target was verified just before, with nothing sent in between (a load alone): it is not asked again. */
  verified?: boolean;
}

/** Runs one stage, sampled or not (the warm-up), its sampling tuned where a stage needs it. */
type StageRunner = (stageOptions: StageOptions, sampled: boolean, tuned?: Partial<SamplingSetup>) => Promise<RawLoadRun>;

/** The target rates of the stages: one stage at the profile's rate, or the ramp's steps. */
function stageRates(profile: LoadProfile): Array<number | undefined> {
  if (!profile.ramp) return [profile.rate];
  const rates: number[] = [];
  for (let rate = profile.ramp.from; rate <= profile.ramp.to; rate += profile.ramp.step) rates.push(rate);
  return rates;
}

/** Runs a profile against the service: verifies one request, warms up, then the stages (none when Ctrl-C came first). */
export async function executeLoad(options: LoadRunOptions): Promise<LoadStage[]> {
  const { profile, http } = options;
  const listPath = listPathOf(options.contract);
  // No request after a signal: the load stops sending as the run does (asked again after each wait).
  const stopped = (): boolean => options.signal?.aborted === true;
  if (stopped()) return [];
  if (options.verified !== true) {
    const client = options.open();
    try {
      await preflight(client, contractRequests(options.contract).listing(), true);
    } finally {
      await client.close();
    }
  }
  const redact = runRedactor(http.apiKey, http);
  const common: Omit<StageOptions, 'durationSeconds' | 'maxRequests'> = {
    baseUrl: http.baseUrl,
    apiKey: http.apiKey,
    profileName: profile.name,
    listPath,
    queries: profile.queries,
    connections: profile.connections,
    timeoutSeconds: profile.timeout,
    maxBodyBytes: http.maxResponseBytes,
    ...connectionOf(http),
    ...(options.listener ? { listener: options.listener } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const workers = Math.min(profile.workers ?? defaultWorkers(profile.connections), profile.connections);
  // One worker runs in this thread; more run in a pool started once for the warm-up and every stage.
  if (stopped()) return [];
  const pool = workers > 1 ? await StageWorkers.start(workers, http.apiKey, http.secrets) : undefined;
  // Made as each stage starts: what is left of the pets' consistency windows is counted from then.
  const sampling = (tuned: Partial<SamplingSetup>) => ({
    ...profile.sampling,
    ...tuned,
    ...(options.knownPets === undefined ? {} : { known: options.knownPets() }),
  });
  const stage: StageRunner = async (stageOptions, sampled, tuned = {}) => {
    if (pool !== undefined) return pool.run({ ...stageOptions, ...(sampled ? { sampling: sampling(tuned) } : {}) });
    return runStage({ ...stageOptions, ...(sampled ? { sampler: new ResponseSampler(sampling(tuned), options.contract, redact) } : {}) });
  };
  try {
    return await runStages(options, common, stage);
  } finally {
    await pool?.close();
  }
}

/** The warm-up, then the stages until the duration, the request budget or a ramp's first breach ends them. */
async function runStages(
  options: LoadRunOptions,
  common: Omit<StageOptions, 'durationSeconds' | 'maxRequests'>,
  stage: StageRunner,
): Promise<LoadStage[]> {
  const { profile } = options;
  let budget = profile.maxRequests;
  const firstRate = stageRates(profile)[0];
  if (profile.warmup > 0 && options.signal?.aborted !== true) {
    const warm = await stage(
      {
        ...common,
        profileName: `${profile.name} (warm-up)`,
        ...(firstRate === undefined ? {} : { rate: firstRate }),
        durationSeconds: profile.warmup,
        maxRequests: budget,
      },
      false,
    );
    budget -= warm.requests;
  }
  // The pressure step's seconds are the profile's last: duration stays the ceiling of all measured load.
  const deadline = performance.now() + (profile.duration - (profile.pressure?.duration ?? 0)) * 1000;
  const stages: LoadStage[] = [];
  for (const rate of stageRates(profile)) {
    const remainingSeconds = (deadline - performance.now()) / 1000;
    if (budget <= 0 || remainingSeconds <= 0 || options.signal?.aborted === true) break;
    const durationSeconds = Math.min(profile.ramp?.stageDuration ?? profile.duration, remainingSeconds);
    const windowSeconds = trendWindowSeconds(trendOf(profile), durationSeconds);
    const raw = await stage(
      {
        ...common,
        ...(rate === undefined ? {} : { rate }),
        durationSeconds,
        ...(windowSeconds === undefined ? {} : { windowSeconds }),
        maxRequests: budget,
      },
      true,
    );
    budget -= raw.requests;
    const measured: LoadStage = { metrics: aggregateRuns([raw]), breached: [], raw: [raw] };
    if (rate !== undefined) measured.rate = rate;
    stages.push(measured);
    // A ramp stops at its first breach; buildLoadReport has the judge record what each stage broke.
    if (options.breaks(measured) || raw.interrupted) break;
  }
  if (stages.length === 0 && options.signal?.aborted !== true)
    throw new RunError('ERR_CONFIG', `load profile ${profile.name}: nothing was measured (the warm-up used the whole request budget)`);
  const pressure = profile.pressure;
  const stopped = options.signal?.aborted === true || stages.some((s) => s.raw.some((r) => r.interrupted));
  if (pressure !== undefined && profile.ramp === undefined && budget > 0 && !stopped) {
    // As fast as the service answers: every connection keeps one request in flight, whatever the profile's rate. Its sample
    // is 1 in `every` (the stage before took the first few): a sampled listing of megabytes is no cheap judgement.
    const raw = await stage(
      { ...common, connections: pressure.connections, durationSeconds: pressure.duration, maxRequests: budget },
      true,
      { first: 0 },
    );
    stages.push({ metrics: aggregateRuns([raw]), breached: [], raw: [raw], pressure: { connections: pressure.connections } });
  }
  return stages;
}
