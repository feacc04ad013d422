/** The run's inputs, loaded and validated before the first request: the contract, the suites and the cases (declared and generated). */
import { REGISTRY } from '../checks/registry.js';
import { loadContract, type LoadedContract } from '../loader/contract.js';
import { loadCases, suiteFolders } from '../loader/cases.js';
import { generateCases } from '../requests/generated-cases.js';
import { loadSuites, type SuiteInfo } from '../loader/suites.js';
import { RunError } from '../model/errors.js';
import type { CaseSpec } from '../model/scenario.js';
import { didYouMean } from '../model/suggest.js';
import type { PhaseInputs } from './phase.js';
import type { Selection } from './plan.js';
import { phaseCases } from './phases/index.js';

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

/** Every case of the inputs selected, of every phase, in every suite: what the matrix and a whole embedded run judge. */
export function selectEverything(inputs: CaseInputs): Selection {
  return {
    cases: [...inputs.cases],
    suites: inputs.suites.map((s) => s.name),
    ids: new Set(phaseCases(inputs).map((c) => c.id)),
  };
}
