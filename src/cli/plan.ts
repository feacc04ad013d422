/** From argv and the configuration file to a run plan: every input read and validated here, before the engine sends anything. */
import { randomInt } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import path from 'node:path';
import { knownIds, loadCaseInputs, unknownSuiteText, type InputFolders } from '../engine/inputs.js';
import { PHASES } from '../engine/phases/index.js';
import type { LoadPlan, RunPlan, RunSettings, Selection, Target } from '../engine/plan.js';
import { headerSecrets } from '../http/extra-headers.js';
import { proxyCredentials, proxyEnvironment, proxyFor } from '../http/proxy.js';
import { DEFAULT_PACING, type PacingOptions } from '../http/pacer.js';
import { disabledIdProblems, productionMark, readConfig, refuseProductionLoad, type SuiteConfig } from '../loader/config.js';
import { loadContract, type LoadedContract } from '../loader/contract.js';
import { LOAD_PROFILE_FOLDER, loadProfile, resolveProfilePath } from '../loader/load-profiles.js';
import { packagePath } from '../loader/package-paths.js';
import { type BaselineReport, readLoadReports } from '../loader/report-files.js';
import { baselineReport, loadBaseline, refuseOverwrite } from './baseline-plan.js';
import type { ClientCertificate } from '../model/connection.js';
import { RunError } from '../model/errors.js';
import { problemsError, type FileProblem } from '../loader/yaml-file.js';
import type { LoadProfile, LoadReport } from '../model/load.js';
import { parseReporterNames, type OutputTarget, type ReporterName } from '../reporters/reporter-registry.js';
import { type GivenValues, type OptionCommand, type OptionName, type OptionValues, optionEntries } from './options.js';
import { runSettings } from './run-settings.js';
import { readSecretFile, resolveApiKey } from './secret-files.js';
import { noMatchText, selectCaseKinds, selectCases, skippedIds } from './selection.js';
import { deprecatedKeyWarnings, fileValueProblems, labelOf, recordedOptions, settle, type Env, type Settled } from './settings.js';

export type { Env } from './settings.js';

/** The package's own contract: read and compiled once per process, whatever asks for it. */
function packageContract(): Promise<LoadedContract> {
  return loadContract(packagePath('schemas'));
}

/** A command's options settled, with the configuration file as their second layer, and the file's problems found so far. */
type SettledWithConfig = Settled & { config: SuiteConfig | undefined; configProblems: FileProblem[] };

/**
 * A command's options settled, with the configuration file (named by --config or PETSTORE_CONFIG) as their second layer.
 * The file's problems (its schema, its production list, values that do not read) are gathered, not thrown: the plan adds
 * the names it gives that the package does not know, then refuses them all at once (refuseConfigProblems).
 */
async function settleWithConfig(command: OptionCommand, flags: GivenValues, env: Env): Promise<SettledWithConfig> {
  const file = settle(command, flags, env).values.config;
  if (file === undefined) return { ...settle(command, flags, env), config: undefined, configProblems: [] };
  const read = await readConfig(path.resolve(file), (await packageContract()).fileValidator('config.schema.json'), process.cwd());
  const { config, problems } = fileValueProblems(read.config);
  return { ...settle(command, flags, env, config), config, configProblems: [...read.problems, ...problems] };
}

/** Every problem of the configuration file at once, in file order (exit 2), before anything else is said or sent. */
function refuseConfigProblems(problems: readonly FileProblem[]): void {
  if (problems.length === 0) return;
  const ordered = [...problems].sort((a, b) => a.line - b.line || a.column - b.column);
  throw problemsError('ERR_CONFIG', 'the configuration file', ordered);
}

/** A list option's items that name nothing: located problems when the list came from the configuration file, else one usage line. */
type ListProblems = { fileProblems: FileProblem[]; usage?: RunError };

/**
 * The problems of the items at `bad` of list option `option` (the file's `key`): each at its file:line:col, `about` the
 * item there, when the configuration file gave the list; else `usage`, one line for the flag.
 */
function listProblems(
  settled: SettledWithConfig,
  option: 'suite' | 'check',
  key: 'suites' | 'checks',
  bad: readonly number[],
  about: (index: number) => string,
  usage: () => string,
): ListProblems {
  if (bad.length === 0) return { fileProblems: [] };
  const { config } = settled;
  if (settled.origins[option]?.layer !== 'file' || config === undefined)
    return { fileProblems: [], usage: new RunError('ERR_USAGE', usage()) };
  return { fileProblems: bad.map((index) => ({ ...config.locate([key, index]), message: `${key}: ${about(index)}` })) };
}

/** The suites `--suite` (or the file's `suites`) names that the package lacks: located problems from the file, else one usage line. */
function unknownSuites(settled: SettledWithConfig, names: readonly string[]): ListProblems {
  const given = settled.values.suite ?? [];
  const bad = given.flatMap((name, index) => (names.includes(name) ? [] : [index]));
  return listProblems(
    settled,
    'suite',
    'suites',
    bad,
    (index) => unknownSuiteText([given[index] ?? ''], names),
    () =>
      unknownSuiteText(
        bad.map((index) => given[index] ?? ''),
        names,
      ),
  );
}

/** The production entry of the configuration a base URL falls under, if any. */
function productionOf(baseUrl: string | undefined, config: SuiteConfig | undefined): string | undefined {
  return baseUrl === undefined || config === undefined ? undefined : productionMark(baseUrl, config.production);
}

/** Refuses load against a base URL the configuration or the profile marks as production, unless allowed: before anything is sent. */
function refuseProduction(baseUrl: string | undefined, config: SuiteConfig | undefined, profile: LoadProfile, allowed: boolean): void {
  if (baseUrl === undefined) return;
  if (config !== undefined) refuseProductionLoad(baseUrl, config.production, config.file, allowed);
  refuseProductionLoad(baseUrl, profile.production, profile.file, allowed);
}

async function resolveTarget(settled: Settled, env: Env): Promise<Target> {
  const { values } = settled;
  const baseUrl = values['base-url'];
  const ca = values['ca-file'] === undefined ? undefined : await readSecretFile(values['ca-file'], labelOf(settled, 'ca-file'), false);
  const apiKey = await resolveApiKey(settled, baseUrl === undefined, env);
  const clientCertificate = await resolveClientCertificate(settled, baseUrl, env);
  // The configuration's headers, then the flags': a name given again took the later value.
  const headers = values.header ?? [];
  // The embedded server is reached directly; a proxy variable that is not a URL stops only a run that would use it.
  const proxies = baseUrl === undefined ? undefined : proxyEnvironment(env);
  const secrets = [
    ...headerSecrets(headers),
    ...(proxies === undefined ? [] : proxyCredentials(env)),
    ...(clientCertificate?.passphrase === undefined ? [] : [clientCertificate.passphrase]),
  ];
  return {
    apiKey,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(ca === undefined ? {} : { ca }),
    ...(clientCertificate === undefined ? {} : { clientCertificate }),
    ...(headers.length === 0 ? {} : { headers }),
    ...(proxies === undefined || (proxies.httpProxy ?? proxies.httpsProxy) === undefined ? {} : { proxies }),
    ...(secrets.length === 0 ? {} : { secrets }),
    maxHeaderBytes: values['max-header-bytes'],
  };
}

/** --client-cert and --client-key, together, for an https service; a pair that does not load is one line. */
async function resolveClientCertificate(settled: Settled, baseUrl: string | undefined, env: Env): Promise<ClientCertificate | undefined> {
  const certFile = settled.values['client-cert'];
  const keyFile = settled.values['client-key'];
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined)
    throw new RunError(
      'ERR_USAGE',
      `${certFile === undefined ? '--client-key needs --client-cert' : '--client-cert needs --client-key'}: ` +
        'mutual TLS takes the certificate and its key',
    );
  if (baseUrl === undefined || !baseUrl.startsWith('https:'))
    throw new RunError('ERR_USAGE', '--client-cert: mutual TLS needs an https --base-url');
  const cert = await readSecretFile(certFile, labelOf(settled, 'client-cert'), false);
  const key = await readSecretFile(keyFile, labelOf(settled, 'client-key'), true);
  const passphrase = env['PETSTORE_CLIENT_KEY_PASSPHRASE'] || undefined;
  const certificate: ClientCertificate = { cert, key, ...(passphrase === undefined ? {} : { passphrase }) };
  try {
    createSecureContext(certificate);
  } catch (error) {
    // OpenSSL's words ('key values mismatch', 'bad decrypt') without its error-queue prefix. For an encrypted key without a
    // passphrase they vary ('bad decrypt', or the decoders' 'unsupported'): the key's own PEM header says it is encrypted.
    const reason = (error as Error).message.replace(/^error:[0-9A-Fa-f]+:[^:]*::?/, '');
    const encrypted = /-----BEGIN ENCRYPTED PRIVATE KEY-----|^Proc-Type: 4,ENCRYPTED/m.test(key);
    throw new RunError(
      'ERR_CONFIG',
      `--client-cert ${certFile} with --client-key ${keyFile}: ${reason}` +
        ((encrypted || /decrypt|passphrase/i.test(reason)) && passphrase === undefined
          ? ' (an encrypted key reads its passphrase from PETSTORE_CLIENT_KEY_PASSPHRASE)'
          : ''),
    );
  }
  return certificate;
}

/** What report.json records of the proxy the environment chose, without its credentials (the options record the headers and mutual TLS). */
function proxyRecord(target: Target): { proxy?: string } {
  const proxy =
    target.baseUrl === undefined || target.proxies === undefined ? undefined : proxyFor(new URL(target.baseUrl), target.proxies);
  return proxy === undefined ? {} : { proxy: proxy.url };
}

/** The folders of the package's inputs, with the user's scenario folders after its own. */
export function packageFolders(extraScenarioDirs: readonly string[]): InputFolders {
  return {
    schemasDir: packagePath('schemas'),
    scenarioDirs: [packagePath('scenarios'), ...extraScenarioDirs.map((d) => path.resolve(d))],
    suitesDir: packagePath('suites'),
    displayRoot: packagePath(),
  };
}

async function readProfile(argument: string): Promise<LoadProfile> {
  const file = await resolveProfilePath(argument, packagePath('scenarios', LOAD_PROFILE_FOLDER));
  return loadProfile(file, (await packageContract()).fileValidator('load-profile.schema.json'), packagePath());
}

/**
 * `--connections N`: the load's peak, the most requests it keeps in flight at once. A profile with a pressure step gets N in
 * that step and keeps its other stages' connections up to N; one without has N in every stage.
 */
function withPeakConnections(profile: LoadProfile, connections: number): LoadProfile {
  if (profile.pressure === undefined) return { ...profile, connections };
  return { ...profile, connections: Math.min(profile.connections, connections), pressure: { ...profile.pressure, connections } };
}

/** A load's plan; `target`: what it loads (a base URL, `embedded`), `refuse`: a baseline unlike it is refused (a load or merge alone). */
async function loadPlan(
  declared: LoadProfile,
  settled: Settled,
  reportDir: string,
  against: { target: string; refuse: boolean; read?: BaselineReport },
): Promise<LoadPlan> {
  const { values } = settled;
  const workers = values.workers === undefined ? declared : { ...declared, workers: values.workers };
  const profile = values.connections === undefined ? workers : withPeakConnections(workers, values.connections);
  const plan: LoadPlan = { profile, allowProductionLoad: values['allow-production-load'] };
  const tolerance = values['baseline-tolerance'] ?? profile.baselineTolerance;
  if (values.baseline !== undefined) {
    const read = against.read ?? (await baselineReport(values.baseline, reportDir));
    const baseline = loadBaseline(values.baseline, read, { profile, tolerance, target: against.target, refuse: against.refuse });
    if (baseline !== undefined) plan.baseline = baseline;
  }
  return plan;
}

/** `--wait-for SECONDS`, in ms, when it asks for a wait at all. */
function waitForOf(settled: Settled): { waitForMs?: number } {
  const seconds = settled.values['wait-for'];
  return seconds === undefined || seconds === 0 ? {} : { waitForMs: seconds * 1000 };
}

/** The options whose setting only phases read (Phase.reads) when none of the phases that read it runs: none recorded. */
function unreadOptions(reads: ReadonlySet<string>): Partial<Record<OptionName, undefined>> {
  const phaseRead = new Set(PHASES.flatMap((phase) => phase.reads ?? []));
  return Object.fromEntries(
    optionEntries()
      .filter(([, spec]) => spec.setting !== undefined && phaseRead.has(spec.setting) && !reads.has(spec.setting))
      .map(([name]) => [name, undefined]),
  );
}

/** `--rate-limit N` (or `N/s`), `--max-wait S`, `--wait-budget S`. */
function pacingOf(settled: Settled): PacingOptions {
  const { values } = settled;
  const pacing: PacingOptions = { maxWaitMs: values['max-wait'] * 1000, waitBudgetMs: values['wait-budget'] * 1000 };
  if (values['rate-limit'] !== undefined) pacing.ratePerSecond = values['rate-limit'];
  return pacing;
}

/** The --check globs (or the file's `checks`) that name no case: located problems from the file, else one usage line. */
function uncheckedGlobs(
  settled: SettledWithConfig,
  selection: { candidates: string[]; unmatched: number[] },
  narrowed: boolean,
): ListProblems {
  const globs = settled.values.check ?? [];
  const what = `case${narrowed ? ' of the selected suites' : ''}`;
  const about = (index: number): string => noMatchText(globs[index] ?? '', selection.candidates, what);
  return listProblems(settled, 'check', 'checks', selection.unmatched, about, () => `--check ${about(selection.unmatched[0] ?? 0)}`);
}

/** A plan, where its reports go and which reporters write them. */
export interface PlannedRun {
  plan: RunPlan;
  /** As the user gave it (relative to the working folder, or absolute), so that every path the run prints reads as given. */
  reportDir: string;
  reporters: ReporterName[];
  /** Where `--out` pushes the results when the run ends. */
  outputs: OutputTarget[];
  /** A line to show before the run (e.g. that a production URL is run read-only). */
  notice?: string;
  /** Lines for standard error before the run: configuration keys given by a name an option no longer goes by. */
  warnings?: string[];
}

/** `run [--load PROFILE]`: the conformance cases, and a load profile when asked. */
export async function planRun(flags: GivenValues, env: Env): Promise<PlannedRun> {
  const settled = await settleWithConfig('run', flags, env);
  const { values, config } = settled;
  const inputs = await loadCaseInputs(packageFolders(values.scenarios ?? []), []);
  const suiteNames = inputs.suites.map((s) => s.name);
  const profile = values.load === undefined ? undefined : await readProfile(values.load);
  const suites = unknownSuites(settled, suiteNames);
  const selectedSuites = selectCaseKinds(
    (values.suite ?? []).filter((name) => suiteNames.includes(name)),
    values['case-kind'] ?? [],
    suiteNames,
  );
  const selection = selectCases(inputs, selectedSuites, values.check ?? []);
  const globs = uncheckedGlobs(settled, selection, selectedSuites.length > 0);
  // Every problem of the file at once, before those of the flags: unknown suites and ids included, each at file:line:col.
  refuseConfigProblems([
    ...settled.configProblems,
    ...suites.fileProblems,
    // Every id the package knows, not only the selected ones: a team's disable list holds ids of every suite.
    ...(config === undefined ? [] : disabledIdProblems(config, knownIds(profile === undefined ? inputs : { ...inputs, profile }))),
    ...globs.fileProblems,
  ]);
  if (suites.usage !== undefined) throw suites.usage;
  if (globs.usage !== undefined) throw globs.usage;
  const { cases, ids } = selection;
  const target = await resolveTarget(settled, env);
  const production = productionOf(target.baseUrl, config);
  // A production service is never written to, whatever the flags say: the configuration marked it.
  const readOnly = values['read-only'] || production !== undefined;
  // --skip-check knows what --check does and more: every case of every phase, selected or not, as the configuration's disable list.
  const skipped = skippedIds(values['skip-check'] ?? [], knownIds(inputs));
  const reportDir = path.normalize(values['report-dir']);
  const reporters = parseReporterNames(values.reporter);
  if (profile !== undefined) refuseProduction(target.baseUrl, config, profile, values['allow-production-load']);
  // The generated phases draw from a seed: given, or random and recorded so that --seed replays the run's requests.
  const seed = values.seed ?? randomInt(2 ** 31);
  // The baseline read once: its cases for the run, its load for the load.
  const read = values.baseline === undefined ? undefined : await baselineReport(values.baseline, reportDir);
  const against = { target: target.baseUrl ?? 'embedded', refuse: false, ...(read === undefined ? {} : { read }) };
  const load = profile === undefined ? undefined : await loadPlan(profile, settled, reportDir, against);
  const suiteList = selectedSuites.length > 0 ? selectedSuites : suiteNames;
  const runSelection: Selection = {
    cases,
    suites: load === undefined ? suiteList : [...suiteList, 'load'],
    ids,
    ...(load === undefined ? {} : { load }),
  };
  // What no row of the table fills as it is: the clock, read-only on production, the pacing, the seed.
  const settings = runSettings(values, {
    ...waitForOf(settled),
    now: values.now ?? new Date(),
    readOnly,
    pacing: pacingOf(settled),
    seed,
  });
  const planned = { ...basePlan(inputs.contract, target, config, skipped), selection: runSelection, settings };
  // A setting changes nothing when no phase that reads it runs (the seed, the examples): recorded only when one does.
  const enabled = PHASES.filter((phase) => phase.enabled({ ...planned, recordedOptions: {} }));
  const reads = new Set(enabled.flatMap((phase) => phase.reads ?? []));
  const unread = unreadOptions(reads);
  const plan: RunPlan = {
    ...planned,
    recordedOptions: {
      ...recordedOptions('run', settled, {
        'read-only': readOnly,
        'report-dir': path.resolve(reportDir),
        load: profile?.name,
        seed: reads.has('seed') ? seed : undefined,
        ...unread,
      }),
      ...proxyRecord(target),
    },
    ...(read?.conformance === undefined ? {} : { conformanceBaseline: read.conformance }),
    failOn: values['fail-on'],
  };
  const notice =
    production !== undefined && !values['read-only']
      ? `${target.baseUrl ?? ''} is marked production in ${config?.file ?? ''}: read-only`
      : undefined;
  const outputs = values.out ?? [];
  const warnings = deprecatedKeyWarnings(config);
  return {
    plan,
    reportDir,
    reporters,
    outputs,
    ...(notice === undefined ? {} : { notice }),
    ...(warnings.length === 0 ? {} : { warnings }),
  };
}

/** What `load` and `merge` write unless told otherwise: the console and report.json. */
const LOAD_REPORTERS = ['console', 'json'];

/** `load PROFILE`: the profile alone against the service (or the embedded reference server). */
export async function planLoad(positionals: readonly string[], flags: GivenValues, env: Env): Promise<PlannedRun> {
  if (positionals.length !== 1)
    throw new RunError('ERR_USAGE', `'load' takes one profile (a name in scenarios/load or a file), got ${positionals.length}`);
  const profile = await readProfile(positionals[0] as string);
  const settled = await settleWithConfig('load', flags, env);
  const { values, config } = settled;
  refuseConfigProblems([
    ...settled.configProblems,
    ...(config === undefined ? [] : disabledIdProblems(config, knownIds({ contract: await packageContract(), cases: [], profile }))),
  ]);
  const reportDir = path.normalize(values['report-dir']);
  const reporters = parseReporterNames(values.reporter ?? LOAD_REPORTERS);
  const target = await resolveTarget(settled, env);
  const load = await loadPlan(profile, settled, reportDir, { target: target.baseUrl ?? 'embedded', refuse: true });
  refuseProduction(target.baseUrl, config, profile, values['allow-production-load']);
  const recorded = {
    ...recordedOptions('load', settled, { load: profile.name, 'report-dir': path.resolve(reportDir) }),
    ...proxyRecord(target),
  };
  return {
    plan: {
      ...basePlan(await packageContract(), target, config),
      selection: { cases: [], suites: ['load'], ids: new Set(), load },
      settings: { ...loadSettings(values), ...waitForOf(settled) },
      recordedOptions: recorded,
    },
    reportDir,
    reporters,
    outputs: values.out ?? [],
  };
}

/** Reports of different profiles are no one load seen from several machines: refused before anything is said or written. */
function refuseMixedProfiles(files: readonly string[], loads: readonly LoadReport[]): void {
  const first = loads[0]?.profile.name;
  const other = loads.findIndex((load) => load.profile.name !== first);
  if (other === -1) return;
  throw new RunError(
    'ERR_USAGE',
    `cannot merge ${files[0] ?? ''} (profile '${first ?? ''}') ` +
      `with ${files[other] ?? ''} (profile '${loads[other]?.profile.name ?? ''}'): ` +
      'merge takes the reports of one profile, run at once on several machines',
  );
}

/** `merge REPORT...`: the raw results of runs made at once on several machines, judged again by the first one's thresholds. */
export async function planMerge(positionals: readonly string[], flags: GivenValues, env: Env): Promise<PlannedRun> {
  if (positionals.length < 1) throw new RunError('ERR_USAGE', "'merge' takes the report.json files of the runs to merge");
  // A merge reads no configuration file: it reaches no service, and its reports go where its flags say.
  const settled = settle('merge', flags, env);
  const reportDir = path.normalize(settled.values['report-dir']);
  const reporters = parseReporterNames(settled.values.reporter ?? LOAD_REPORTERS);
  refuseOverwrite(
    reportDir,
    positionals.map((file): [string, string] => ['merge input', file]),
  );
  const loads = await readLoadReports(positionals);
  refuseMixedProfiles(positionals, loads);
  const first = loads[0] as (typeof loads)[number];
  const { baseline } = await loadPlan(first.profile, settled, reportDir, { target: first.baseUrl, refuse: true });
  const merge = baseline === undefined ? { loads } : { loads, baseline };
  const recorded = { ...recordedOptions('merge', settled, { 'report-dir': path.resolve(reportDir) }), merged: [...positionals] };
  return {
    plan: {
      // It sends nothing: the base URL is the one the merged loads measured, which the report names.
      ...basePlan(await packageContract(), { apiKey: '', baseUrl: first.baseUrl }, undefined),
      selection: { cases: [], suites: ['load'], ids: new Set(), merge },
      settings: loadSettings(settled.values),
      recordedOptions: recorded,
    },
    reportDir,
    reporters,
    outputs: settled.values.out ?? [],
  };
}

/** What a plan holds whatever its command: the contract, the target, what is switched off. */
function basePlan(
  contract: LoadedContract,
  target: Target,
  config: SuiteConfig | undefined,
  skipped: ReadonlyArray<{ id: string; reason: string }> = [],
): Pick<RunPlan, 'contract' | 'target' | 'disabled'> {
  return { contract, target, disabled: [...(config?.disable ?? []).map(({ id, reason }) => ({ id, reason })), ...skipped] };
}

/**
 * The settings of a load or a merge, which take none of the conformance options (their settled values are the table's defaults): no case
 * runs, so one connection, nothing written, nothing drawn.
 */
function loadSettings(values: OptionValues): RunSettings {
  return {
    ...runSettings(values, { now: new Date(), readOnly: false, pacing: DEFAULT_PACING, seed: 0 }),
    concurrency: 1,
    consistencyWindowMs: 0,
    maxWrites: 0,
    maxExamples: 0,
  };
}

/**
 * Colour by the conventions: never with --no-color or a non-empty NO_COLOR (no-color.org: set but empty means nothing);
 * always with a FORCE_COLOR other than empty, 0 or false; else only on a terminal.
 */
export function useColor(flags: { 'no-color'?: boolean }, env: Env, stdout: { isTTY?: boolean }): boolean {
  if (flags['no-color'] === true || (env['NO_COLOR'] ?? '') !== '') return false;
  // As Node reads FORCE_COLOR: 0 or false turns colour off, any other non-empty value turns it on.
  const force = env['FORCE_COLOR'];
  if (force === '0' || force === 'false') return false;
  if (force !== undefined && force !== '') return true;
  return stdout.isTTY === true;
}
