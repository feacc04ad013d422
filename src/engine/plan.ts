/**
 * A run plan: everything read and validated before the first request. It names no phase: the target, the contract, what
 * the run selected, and the settled option values; each phase reads its own settings and decides from the selection
 * whether it runs (Phase.enabled).
 */
import type { LoadedContract } from '../loader/contract.js';
import type { PacingOptions } from '../http/pacer.js';
import type { ConformanceBaseline, FailOn } from '../model/baseline.js';
import type { Baseline, ExchangeCheck } from '../model/check.js';
import type { ConnectionSettings } from '../model/connection.js';
import type { JsonValue } from '../model/json.js';
import type { LoadProfile, LoadReport } from '../model/load.js';
import type { DisabledCheck, RunMeta } from '../model/results.js';
import type { CaseSpec } from '../model/scenario.js';

/** The service under test: a base URL, or (none given) the embedded reference server. */
export interface Target extends ConnectionSettings {
  baseUrl?: string;
  apiKey: string;
}

/** A load profile to run, with what it is compared with. */
export interface LoadPlan {
  profile: LoadProfile;
  baseline?: Baseline;
  allowProductionLoad: boolean;
}

/** Load reports of several machines to merge and judge again. */
export interface MergePlan {
  loads: LoadReport[];
  baseline?: Baseline;
}

/** What the run selected (--suite, --phase, --check, a profile, reports to merge): what each phase decides from whether it runs. */
export interface Selection {
  /** The declared and generated cases selected, in the order of the report. */
  cases: CaseSpec[];
  /** The suites the report names: those selected, or all (and `load` with a profile or reports to merge). */
  suites: string[];
  /** The id of every selected case, of every phase: a phase whose cases are all unselected is not enabled. */
  ids: ReadonlySet<string>;
  /** A load profile to measure. */
  load?: LoadPlan;
  /** Load reports of several machines to merge. */
  merge?: MergePlan;
}

/** The settled option values a run reads (the option table's, typed); each phase reads those it needs. */
export interface RunSettings {
  /** --wait-for: how long the service may take to answer its first listing before the run starts (none: not waited for). */
  waitForMs?: number;
  /** The suite's clock. */
  now: Date;
  strict: boolean;
  requestTimeoutMs: number;
  maxResponseBytes: number;
  /** Bytes of a body kept as evidence. */
  excerptBytes: number;
  readOnly: boolean;
  /** How many requests (cases, steps) at once. */
  concurrency: number;
  /** How long a read-after-write step keeps retrying before it fails. */
  consistencyWindowMs: number;
  categoryId: JsonValue;
  /** Rate limit and the bounds on waiting when the server asks (429, Retry-After). */
  pacing: PacingOptions;
  /** The most pets the run may create (--max-writes). */
  maxWrites: number;
  /** What the generated phases draw from (--seed): recorded so that the same seed replays the run's requests. */
  seed: number;
  /** Examples per property of the generated phases (--max-examples). */
  maxExamples: number;
  /** The most requests in each sequence of the stateful phase (--sequence-length). */
  sequenceLength: number;
  /** The exchange checks every response is judged by (default: the registry's). */
  exchangeChecks?: readonly ExchangeCheck[];
  /** --min-judged: the least percent of the selected rules a run must judge, or it is incomplete (exit 2). */
  minJudged?: number;
}

/** Everything a run does, decided before it starts. */
export interface RunPlan {
  contract: LoadedContract;
  /** Where requests go (none given: the embedded server); a merge sends none, its base URL is the merged loads'. */
  target: Target;
  selection: Selection;
  settings: RunSettings;
  /** Checks and cases switched off by the configuration and --skip-check. */
  disabled: DisabledCheck[];
  /** Options as the report records them (never the key). */
  recordedOptions: RunMeta['options'];
  /** The earlier run whose cases and rules this one is compared with (--baseline), when it holds any. */
  conformanceBaseline?: ConformanceBaseline;
  /** What fails the run (--fail-on): any failure (absent too), or only those new since the baseline. */
  failOn?: FailOn;
}
