/** A run plan: everything read and validated before the first request, and how to read it. */
import { REGISTRY } from '../checks/registry.js';
import { generateCases } from '../loader/generated-cases.js';
import { loadContract, type LoadedContract } from '../loader/contract.js';
import { loadCases, suiteFolders } from '../loader/cases.js';
import { loadSuites, type SuiteInfo } from '../loader/suites.js';
import type { Baseline, ExchangeCheck } from '../model/check.js';
import type { PacingOptions } from '../http/pacer.js';
import { RunError } from '../model/errors.js';
import { didYouMean } from '../model/suggest.js';
import type { JsonValue } from '../model/json.js';
import type { LoadProfile, LoadReport } from '../model/load.js';
import type { DisabledCheck, RunMeta } from '../model/results.js';
import type { CaseSpec } from '../model/scenario.js';
import type { PhaseInputs } from './phase.js';
import { phaseCases } from './phases/index.js';
import type { ConnectionSettings } from '../model/connection.js';
import type { FuzzOptions } from './phases/fuzz.js';
import type { StatefulOptions } from './phases/stateful.js';

/** Where the run's input files are. */
export interface InputFolders {
  schemasDir: string;
  /** The package's scenario folder first, then the scenario files or folders the user adds (each with its suites/ beside it). */
  scenarioDirs: string[];
  suitesDir: string;
  /** File names in messages and reports are shown relative to this folder. */
  displayRoot: string;
}

/** The cases of a run and what they need, loaded and validated before the first request. */
export interface CaseInputs {
  contract: LoadedContract;
  suites: SuiteInfo[];
  cases: CaseSpec[];
}

/** Every id a user may name (to disable it): the registered checks and every case a phase can report. */
export function knownIds(inputs: PhaseInputs): Set<string> {
  return new Set([...REGISTRY.keys(), ...phaseCases(inputs).map((c) => c.id)]);
}

/** What a selection of suites that names some the package lacks is told: each, the one likely meant, and every suite. */
export function unknownSuiteText(unknown: readonly string[], names: readonly string[]): string {
  const each = unknown.map((name) => `'${name}'${didYouMean(name, names)}`);
  return `unknown suite ${each.join(', ')}; the suites are: ${names.join(', ')}`;
}

/** Loads the contract, the suites and the cases (generated and declared), keeping only the cases of the selected suites. */
export async function loadCaseInputs(folders: InputFolders, selectedSuites: readonly string[]): Promise<CaseInputs> {
  const contract = await loadContract(folders.schemasDir);
  // A team's own suites are defined beside its scenarios (their suites/ folder), after the package's.
  const suiteDirs = [folders.suitesDir, ...(await suiteFolders(folders.scenarioDirs)).filter((dir) => dir !== folders.suitesDir)];
  const suites = await loadSuites(suiteDirs, contract.fileValidator('suite.schema.json'), folders.displayRoot);
  const names = new Set(suites.map((s) => s.name));
  const unknown = selectedSuites.filter((s) => !names.has(s));
  if (unknown.length > 0) throw new RunError('ERR_USAGE', unknownSuiteText(unknown, [...names]));
  const generated = generateCases(contract);
  const declared = await loadCases(folders.scenarioDirs, contract.fileValidator('scenario.schema.json'), {
    suites: names,
    displayRoot: folders.displayRoot,
    reservedIds: knownIds({ contract, cases: generated }),
  });
  const all = [...generated, ...declared];
  const cases = selectedSuites.length === 0 ? all : all.filter((c) => selectedSuites.includes(c.suite));
  return { contract, suites, cases };
}

/** The service under test: a base URL, or (none given) the embedded reference server. */
export interface Target extends ConnectionSettings {
  baseUrl?: string;
  apiKey: string;
}

/** The conformance part of a run. */
export interface ConformancePlan {
  cases: CaseSpec[];
  /** The suites the report names: those selected, or all. */
  suites: string[];
  /** The ids of the cases built from what the run wrote (created pets, store health) to run: of the selected suites, that --check names. */
  writtenCases: string[];
  readOnly: boolean;
  concurrency: number;
  consistencyWindowMs: number;
  categoryId: JsonValue;
  /** Rate limit and the bounds on waiting when the server asks (429, Retry-After). */
  pacing: PacingOptions;
  /** The fuzzing phase's seed and examples per property, when the fuzz suite runs. */
  fuzz?: FuzzOptions;
  /** The stateful phase's seed and number of sequences, when the stateful suite runs. */
  stateful?: StatefulOptions;
  /** The most pets the run may create (--max-writes). */
  maxWrites: number;
  /** The exchange checks every response is judged by (default: the registry's). */
  exchangeChecks?: readonly ExchangeCheck[];
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

/** Everything a run does, decided before it starts. */
export interface RunPlan {
  contract: LoadedContract;
  /** Where requests go; a merge sends none. */
  target: Target;
  /** --wait-for: how long the service may take to answer its first listing before the run starts (none: not waited for). */
  waitForMs?: number;
  conformance?: ConformancePlan;
  load?: LoadPlan;
  merge?: MergePlan;
  /** The suite's clock. */
  now: Date;
  strict: boolean;
  requestTimeoutMs: number;
  maxResponseBytes: number;
  /** Bytes of a body kept as evidence. */
  excerptBytes: number;
  /** Checks and cases switched off by the configuration. */
  disabled: DisabledCheck[];
  /** Options as the report records them (never the key). */
  recordedOptions: RunMeta['options'];
}
