/** A whole conformance run: load and validate every input, preflight the server, run the checks, build the report. */
import { randomBytes, randomInt } from 'node:crypto';
import { HttpClient, type HttpClientOptions } from '../http/client.js';
import { preflight } from '../http/preflight.js';
import { loadContract, type Contract } from '../loader/contract.js';
import { packageVersion } from '../loader/package-paths.js';
import { generateChecks } from '../loader/generated-checks.js';
import { loadScenarios } from '../loader/scenarios.js';
import { loadSuites, type SuiteInfo } from '../loader/suites.js';
import { RunError } from '../model/errors.js';
import type { RunListener } from '../model/events.js';
import type { JsonValue } from '../model/json.js';
import { emptyCounts, warningsOf, type RunMeta, type RunReport, type Verdict } from '../model/results.js';
import type { CheckSpec } from '../model/scenario.js';
import { CreatedPets, createdPetChecks } from './created-pets.js';
import { checkInfo, runChecks } from './engine.js';

/** Where the run's input files are. */
export interface InputFolders {
  schemasDir: string;
  /** The package's scenario folder first, then any the user adds. */
  scenarioDirs: string[];
  suitesDir: string;
  /** File names in messages and reports are shown relative to this folder. */
  displayRoot: string;
}

/** Everything loaded and validated before the first request. */
export interface RunInputs {
  contract: Contract;
  suites: SuiteInfo[];
  checks: CheckSpec[];
}

/** Loads the contract, the suites and the scenarios, keeping only the checks of the selected suites. */
export async function loadRunInputs(folders: InputFolders, selectedSuites: readonly string[]): Promise<RunInputs> {
  const contract = await loadContract(folders.schemasDir);
  const suites = await loadSuites(folders.suitesDir, contract.fileValidator('suite.schema.json'), folders.displayRoot);
  const names = new Set(suites.map((s) => s.name));
  const unknown = selectedSuites.filter((s) => !names.has(s));
  if (unknown.length > 0) throw new RunError('ERR_USAGE', `unknown suite '${unknown.join("', '")}'; the suites are: ${[...names].join(', ')}`);
  const scenarios = await loadScenarios(folders.scenarioDirs, contract.fileValidator('scenario.schema.json'), { suites: names, displayRoot: folders.displayRoot });
  const generated = generateChecks(contract);
  const generatedIds = new Set(generated.map((c) => c.id));
  const clash = scenarios.find((c) => generatedIds.has(c.id));
  if (clash) throw new RunError('ERR_SCENARIO_INVALID', `${clash.source.file}:${clash.source.line}:${clash.source.column}: check id '${clash.id}' is already generated from the contract; choose another id`);
  const all = [...generated, ...scenarios];
  const checks = selectedSuites.length === 0 ? all : all.filter((c) => selectedSuites.includes(c.suite));
  return { contract, suites, checks };
}

/** How to run, beyond the inputs. */
export interface RunSettings {
  http: HttpClientOptions;
  embeddedServer: boolean;
  selectedSuites: string[];
  now: Date;
  readOnly: boolean;
  strict: boolean;
  concurrency: number;
  consistencyWindowMs: number;
  categoryId: JsonValue;
  excerptBytes: number;
  /** Ctrl-C: stops starting checks; the report then says the run was interrupted. */
  signal?: AbortSignal;
  /** Options as the report records them (never the key). */
  recordedOptions: RunMeta['options'];
}

/** A run id that names what the run creates, e.g. pc-20261121T220500-3fa2. */
export function newRunId(now = new Date()): string {
  return `pc-${now.toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomBytes(2).toString('hex')}`;
}

/** An id no pet is likely to have: random, below 2^53 so the check does not also test int64 parsing. */
function unknownPetId(): number {
  return 2 ** 52 + randomInt(2 ** 47);
}

/** The verdict from the counts: failures first, then checks that could not be tested or an interrupted run. */
export function verdictOf(counts: RunReport['counts'], strict: boolean, interrupted = false): Verdict {
  if (counts.failed > 0 || (strict && counts.warned > 0)) return 'failed';
  if (counts.errored > 0 || interrupted) return 'incomplete';
  return 'passed';
}

/** Runs the checks against the server and returns the canonical report. */
export async function executeRun(inputs: RunInputs, settings: RunSettings, listener: RunListener): Promise<RunReport> {
  const startedAt = new Date();
  const runId = newRunId(startedAt);
  const client = new HttpClient(settings.http);
  const meta: RunMeta = {
    tool: { name: 'petstore-conformance', version: packageVersion() },
    runId,
    baseUrl: client.base.href,
    embeddedServer: settings.embeddedServer,
    startedAt: startedAt.toISOString(),
    clock: settings.now.toISOString(),
    suites: settings.selectedSuites.length > 0 ? settings.selectedSuites : inputs.suites.map((s) => s.name),
    options: settings.recordedOptions,
    deprecations: [...inputs.contract.operations.values()].flatMap((op) =>
      op.deprecated && op.sunset !== undefined
        ? [{ operation: op.name, sunset: op.sunset, daysLeft: Math.ceil((Date.parse(`${op.sunset}T00:00:00Z`) - settings.now.getTime()) / 86_400_000) }]
        : [],
    ),
  };
  try {
    await preflight(client, inputs.contract.operations.get('listPets')?.path ?? '/pets', false);
    await listener.onRunStart?.(meta, inputs.checks.map(checkInfo));
    const created = new CreatedPets();
    const engineOptions = {
      client,
      contract: inputs.contract,
      variables: new Map<string, JsonValue>([
        ['runId', runId],
        ['categoryId', settings.categoryId],
        ['unknownPetId', unknownPetId()],
      ]),
      now: settings.now,
      readOnly: settings.readOnly,
      concurrency: settings.concurrency,
      consistencyWindowMs: settings.consistencyWindowMs,
      excerptBytes: settings.excerptBytes,
      listener,
      created,
      ...(settings.signal === undefined ? {} : { signal: settings.signal }),
    };
    const results = await runChecks(inputs.checks, engineOptions);
    // The created-pet checks judge what every other check wrote, so they run last.
    const finalChecks = createdPetChecks(created, inputs.contract).filter((c) => settings.selectedSuites.length === 0 || settings.selectedSuites.includes(c.suite));
    results.push(...(await runChecks(finalChecks, engineOptions)));
    const counts = emptyCounts();
    for (const r of results) counts[r.outcome] += 1;
    const finished = new Date();
    return {
      reportVersion: 1,
      meta,
      finishedAt: finished.toISOString(),
      durationMs: finished.getTime() - startedAt.getTime(),
      verdict: verdictOf(counts, settings.strict, settings.signal?.aborted === true),
      counts,
      requests: client.requestCount,
      createdPets: { count: created.count, namedWith: runId },
      ...(settings.signal?.aborted === true ? { interrupted: true } : {}),
      checks: results,
      warnings: warningsOf(results),
    };
  } finally {
    await client.close();
  }
}
