/** The load commands: `load PROFILE`, `run --load PROFILE` and `merge REPORT...`. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { newRunId, verdictOf } from '../engine/run.js';
import { DEFAULT_HTTP_OPTIONS, type HttpClientOptions } from '../http/client.js';
import { loadContract, type Contract } from '../loader/contract.js';
import { loadProfile, LOAD_PROFILE_FOLDER, resolveProfilePath } from '../loader/load-profiles.js';
import { packagePath, packageVersion } from '../loader/package-paths.js';
import { addBaseline, buildLoadOutcome, executeLoad, type LoadOutcome } from '../load/load-run.js';
import { aggregateRuns } from '../load/aggregate.js';
import { readBaseline } from '../load/baseline.js';
import { RunError } from '../model/errors.js';
import type { LoadMetrics, LoadProfile, LoadReport, LoadStage } from '../model/load.js';
import { emptyCounts, type RunReport } from '../model/results.js';
import { createReporters } from '../reporters/reporter-registry.js';
import { LoadConsoleReporter } from '../reporters/load-console-reporter.js';
import { ReporterFanOut } from '../reporters/reporter.js';
import { startReferenceServer, type RunningServer } from '../server/reference-server.js';
import { HELP, parseLoadFlags, shareFlag, type LoadFlags } from './args.js';

/** The service a load goes to, resolved the way `run` resolves it. */
export interface Target {
  baseUrl: string | undefined;
  apiKey: string;
  ca: string | undefined;
}

/** The exit codes the load commands return (the CLI's own table). */
export interface ExitCodes {
  passed: number;
  failed: number;
  cannotRun: number;
  interrupted: number;
}

/** While checks or a load run, Ctrl-C stops them and the run still reports; the CLI asks here before exiting at once. */
export const interruption = {
  controller: undefined as AbortController | undefined,
  /** Stops the running checks or load; false when nothing runs (the CLI then exits at once). */
  request(): boolean {
    if (this.controller === undefined || this.controller.signal.aborted) return false;
    this.controller.abort();
    return true;
  },
};

function httpOptions(baseUrl: string, target: Target): HttpClientOptions {
  return { ...DEFAULT_HTTP_OPTIONS, baseUrl, apiKey: target.apiKey, ...(target.ca === undefined ? {} : { ca: target.ca }) };
}

function recount(report: RunReport, strict: boolean): void {
  if (report.load?.interrupted === true) report.interrupted = true;
  report.counts = emptyCounts();
  for (const check of report.checks) report.counts[check.outcome] += 1;
  report.verdict = verdictOf(report.counts, strict, report.interrupted === true || report.load?.interrupted === true);
}

/** The flags of `run` that `run --load` reads. */
export type RunLoadFlags = Pick<LoadFlags, 'baseline' | 'baseline-tolerance' | 'allow-production-load' | 'report-dir'> & { load?: string };

/** Everything a load needs from the user, read and validated before any traffic. */
export interface LoadInputs {
  profile: LoadProfile;
  allowProductionLoad: boolean;
  baseline?: { file: string; metrics: LoadMetrics; tolerance: number };
}

/** Refuses a run whose report.json would overwrite a file the user gave it (a baseline, a report to merge). */
function refuseOverwrite(reportDirFlag: string | undefined, inputs: ReadonlyArray<[string, string]>): void {
  const output = path.join(path.resolve(reportDirFlag ?? 'reports'), 'report.json');
  const clash = inputs.find(([, file]) => path.resolve(file) === output);
  if (clash) throw new RunError('ERR_USAGE', `${clash[0]} ${clash[1]} is the report this run writes; copy it elsewhere first or choose another --report-dir`);
}

let packageContract: Promise<Contract> | undefined;

/** The package's contract, loaded (and its schemas compiled) once per process. */
function contract(): Promise<Contract> {
  packageContract ??= loadContract(packagePath('schemas'));
  return packageContract;
}

async function readProfile(argument: string): Promise<LoadProfile> {
  const file = await resolveProfilePath(argument, packagePath('scenarios', LOAD_PROFILE_FOLDER));
  return loadProfile(file, (await contract()).fileValidator('load-profile.schema.json'), packagePath());
}

/** Reads the profile (a name under scenarios/load, or a file path) and the baseline; any problem is exit 2 before traffic. */
async function readLoadInputs(profile: LoadProfile, flags: RunLoadFlags): Promise<LoadInputs> {
  if (flags.baseline !== undefined) refuseOverwrite(flags['report-dir'], [['--baseline', flags.baseline]]);
  const inputs: LoadInputs = { profile, allowProductionLoad: flags['allow-production-load'] === true };
  const tolerance = shareFlag('baseline-tolerance', flags['baseline-tolerance'], profile.baselineTolerance);
  if (flags.baseline !== undefined) inputs.baseline = { file: flags.baseline, metrics: await readBaseline(flags.baseline), tolerance };
  return inputs;
}

function withBaseline(outcome: LoadOutcome, inputs: LoadInputs): LoadOutcome {
  if (inputs.baseline) addBaseline(outcome, inputs.baseline.metrics, inputs.baseline.file, inputs.baseline.tolerance);
  return outcome;
}

const INTERRUPTED_EARLY = 'petstore-conformance: interrupted before the load was measured\n';

/** Runs a profile with Ctrl-C wired to a clean stop; undefined when Ctrl-C came before anything was measured. */
async function measure(inputs: LoadInputs, http: HttpClientOptions, progress: LoadConsoleReporter): Promise<LoadOutcome | undefined> {
  const controller = new AbortController();
  interruption.controller = controller;
  try {
    const outcome = await executeLoad({
      profile: inputs.profile,
      http,
      contract: await contract(),
      allowProductionLoad: inputs.allowProductionLoad,
      listener: progress,
      signal: controller.signal,
    });
    return withBaseline(outcome, inputs);
  } catch (error) {
    if (controller.signal.aborted) return undefined;
    throw error;
  } finally {
    progress.onLoadEnd();
    interruption.controller = undefined;
  }
}

/** The inputs of `run --load PROFILE`, read before the run sends anything; undefined without --load. */
export async function prepareRunLoad(flags: RunLoadFlags): Promise<LoadInputs | undefined> {
  return flags.load === undefined ? undefined : readLoadInputs(await readProfile(flags.load), flags);
}

/** `run --load PROFILE`: adds the load result and its checks to the conformance report; true when Ctrl-C stopped the load. */
export async function addLoadToRun(report: RunReport, inputs: LoadInputs | undefined, http: HttpClientOptions, strict: boolean, progress: LoadConsoleReporter): Promise<boolean> {
  if (inputs === undefined) return false;
  const outcome = await measure(inputs, http, progress);
  if (outcome === undefined) {
    process.stderr.write(INTERRUPTED_EARLY);
    return true;
  }
  report.checks.push(...outcome.checks);
  report.load = outcome.report;
  recount(report, strict);
  const finished = new Date();
  report.finishedAt = finished.toISOString();
  report.durationMs = finished.getTime() - new Date(report.meta.startedAt).getTime();
  return outcome.report.interrupted;
}

function reportOf(load: LoadReport, checks: LoadOutcome['checks'], startedAt: Date, embedded: boolean, options: RunReport['meta']['options']): RunReport {
  const finished = new Date();
  const report: RunReport = {
    reportVersion: 1,
    meta: {
      tool: { name: 'petstore-conformance', version: packageVersion() },
      runId: newRunId(startedAt),
      baseUrl: load.baseUrl,
      embeddedServer: embedded,
      startedAt: startedAt.toISOString(),
      clock: startedAt.toISOString(),
      suites: ['load'],
      options,
      deprecations: [],
    },
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - startedAt.getTime(),
    verdict: 'passed',
    counts: emptyCounts(),
    requests: load.metrics.requests,
    createdPets: { count: 0, namedWith: '' },
    checks,
    load,
  };
  recount(report, false);
  return report;
}

function help(exit: ExitCodes): number {
  process.stdout.write(HELP);
  return exit.passed;
}

async function publish(report: RunReport, flags: LoadFlags, loadConsole: LoadConsoleReporter, exit: ExitCodes): Promise<number> {
  const reportDir = path.resolve(flags['report-dir'] ?? 'reports');
  const color = flags['no-color'] !== true && process.env['NO_COLOR'] === undefined && process.stdout.isTTY === true;
  const fanOut = new ReporterFanOut([loadConsole, ...createReporters(['console', 'json'], reportDir, { stream: process.stdout, color, quiet: flags.quiet === true })]);
  await fanOut.onRunStart(report.meta, report.checks);
  return finishReport(fanOut, report, flags.quiet === true, report.load?.interrupted === true, exit);
}

/** Ends a run for the user: reporters write, their failures and files are named, and the exit code follows the verdict. */
export async function finishReport(fanOut: ReporterFanOut, report: RunReport, quiet: boolean, interrupted: boolean, exit: ExitCodes): Promise<number> {
  await fanOut.onRunEnd(report);
  for (const failure of fanOut.failures) process.stderr.write(`petstore-conformance: the ${failure.reporter} reporter failed: ${failure.message}\n`);
  if (!quiet) for (const file of fanOut.files) process.stdout.write(`report: ${path.relative(process.cwd(), file) || file}\n`);
  if (interrupted) return exit.interrupted;
  const code = { passed: exit.passed, failed: exit.failed, incomplete: exit.cannotRun }[report.verdict];
  // A run that would pass but lost a report cannot be trusted by a pipeline that reads that report.
  return code === exit.passed && fanOut.failures.length > 0 ? exit.cannotRun : code;
}

/** `load PROFILE`: the profile alone against the service (or the embedded reference server). */
export async function loadCommand(args: string[], resolveTarget: (flags: LoadFlags) => Promise<Target>, exit: ExitCodes): Promise<number> {
  const { positionals, flags } = parseLoadFlags(args, 'load');
  if (flags.help === true) return help(exit);
  if (positionals.length !== 1) throw new RunError('ERR_USAGE', `'load' takes one profile (a name in scenarios/load or a file), got ${positionals.length}`);
  const inputs = await readLoadInputs(await readProfile(positionals[0] as string), flags);
  const target = await resolveTarget(flags);
  const startedAt = new Date();
  const loadConsole = new LoadConsoleReporter({ stream: process.stdout, quiet: flags.quiet === true });
  let server: RunningServer | undefined;
  try {
    if (target.baseUrl === undefined) {
      server = await startReferenceServer({ apiKey: target.apiKey, host: '127.0.0.1', port: 0 }).catch((error: Error) => {
        throw new RunError('ERR_SERVER_START', `cannot start the embedded reference server: ${error.message}`);
      });
    }
    const baseUrl = target.baseUrl ?? (server as RunningServer).baseUrl;
    const outcome = await measure(inputs, httpOptions(baseUrl, target), loadConsole);
    if (outcome === undefined) {
      process.stderr.write(INTERRUPTED_EARLY);
      return exit.interrupted;
    }
    const report = reportOf(outcome.report, outcome.checks, startedAt, server !== undefined, { profile: inputs.profile.name, ...(flags.baseline === undefined ? {} : { baseline: flags.baseline }) });
    return await publish(report, flags, loadConsole, exit);
  } finally {
    await server?.close();
  }
}

async function readLoadReport(file: string): Promise<LoadReport> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new RunError('ERR_CONFIG', `${file}: ${error instanceof SyntaxError ? 'not JSON' : `cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`}`);
  }
  const load = (value as { load?: LoadReport } | null)?.load;
  if (!Array.isArray(load?.stages) || typeof load.profile?.name !== 'string' || load.stages.some((s) => !Array.isArray(s.raw))) {
    throw new RunError('ERR_CONFIG', `${file}: not the report.json of a load run (no load.stages with raw results)`);
  }
  return load;
}

/** `merge REPORT...`: the raw results of runs made at once on several machines, aggregated and judged by the first one's thresholds. */
export async function mergeCommand(args: string[], exit: ExitCodes): Promise<number> {
  const { positionals, flags } = parseLoadFlags(args, 'merge');
  if (flags.help === true) return help(exit);
  if (positionals.length < 1) throw new RunError('ERR_USAGE', "'merge' takes the report.json files of the runs to merge");
  refuseOverwrite(flags['report-dir'], positionals.map((file): [string, string] => ['merge input', file]));
  const loads = await Promise.all(positionals.map(readLoadReport));
  const first = loads[0] as LoadReport;
  const other = loads.find((l) => l.profile.name !== first.profile.name);
  if (other) throw new RunError('ERR_USAGE', `cannot merge runs of different profiles ('${first.profile.name}' and '${other.profile.name}')`);
  const stageCount = Math.min(...loads.map((l) => l.stages.length));
  const stages: LoadStage[] = [];
  for (let i = 0; i < stageCount; i++) {
    const raw = loads.flatMap((l) => (l.stages[i] as LoadStage).raw);
    const stage: LoadStage = { metrics: aggregateRuns(raw, first.baseUrl), breached: [], raw };
    const rate = first.stages[i]?.rate;
    if (rate !== undefined) stage.rate = rate * loads.length;
    stages.push(stage);
  }
  const outcome = withBaseline(buildLoadOutcome(first.profile, first.baseUrl, stages, loads.length), await readLoadInputs(first.profile, flags));
  const report = reportOf(outcome.report, outcome.checks, new Date(), false, { merged: positionals });
  return publish(report, flags, new LoadConsoleReporter({ stream: process.stdout, quiet: flags.quiet === true }), exit);
}
