/** From argv and the configuration file to a run plan: every input read and validated here, before the engine sends anything. */
import { randomBytes, randomInt } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import path from 'node:path';
import { CREATED_PET_CASES } from '../engine/created-pets.js';
import { fuzzCaseInfos } from '../engine/fuzz.js';
import { knownIds, loadCaseInputs, type CaseInputs, type InputFolders, type LoadPlan, type RunPlan, type Target } from '../engine/plan.js';
import { STATEFUL_CASE } from '../engine/stateful.js';
import { DEFAULT_HTTP_OPTIONS } from '../http/client.js';
import { extraHeader, headerSecrets, parseHeaderFlag } from '../http/extra-headers.js';
import { proxyCredentials, proxyEnvironment, proxyFor } from '../http/proxy.js';
import { DEFAULT_PACING, type PacingOptions } from '../http/pacer.js';
import { checkDisabledIds, loadConfig, productionMark, refuseProductionLoad, type SuiteConfig } from '../loader/config.js';
import { loadContract, type LoadedContract } from '../loader/contract.js';
import { fileWhere, readInputFile } from '../loader/input-file.js';
import { LOAD_PROFILE_FOLDER, loadProfile, resolveProfilePath } from '../loader/load-profiles.js';
import { packagePath } from '../loader/package-paths.js';
import { readBaseline, readLoadReports } from '../loader/report-files.js';
import type { ClientCertificate } from '../model/connection.js';
import type { CaseSpec } from '../model/scenario.js';
import { RunError } from '../model/errors.js';
import { safeUrl } from '../model/safe-url.js';
import type { JsonValue } from '../model/json.js';
import { MAX_WORKERS, type LoadProfile } from '../model/load.js';
import { dateFlag, intFlag, optionNames, shareFlag, type LoadFlags, type RunFlags } from './args.js';

/** The package's own contract: read and compiled once per process, whatever asks for it. */
function packageContract(): Promise<LoadedContract> {
  return loadContract(packagePath('schemas'));
}

/** Examples each property of the fuzzing phase draws by default: enough to find the bug classes the matrix holds, quick on a staging. */
const DEFAULT_MAX_EXAMPLES = 30;
/** The most pets a run creates by default: a full run against the embedded server creates about 80. */
const DEFAULT_MAX_WRITES = 500;

/** The largest key or CA file read: a PEM bundle of many certificates fits. */
const SECRET_FILE_BYTES = 1024 * 1024;

/** Reads a key or certificate file; `secret`: a problem does not tell its bytes (an API key, a private key). */
async function readSecretFile(file: string, what: string, secret: boolean): Promise<string> {
  try {
    return (await readInputFile(file, SECRET_FILE_BYTES, secret)).trim();
  } catch (error) {
    throw new RunError('ERR_CONFIG', `${what} ${fileWhere(file, error)}: ${(error as Error).message}`);
  }
}

async function resolveApiKey(flags: { 'api-key-file'?: string }, embedded: boolean, env: Env): Promise<string> {
  if (flags['api-key-file'] !== undefined) {
    const key = await readSecretFile(flags['api-key-file'], '--api-key-file', true);
    if (key === '') throw new RunError('ERR_CONFIG', `--api-key-file ${flags['api-key-file']}: the file is empty`);
    return key;
  }
  const fromEnv = env['PETSTORE_API_KEY'];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (embedded) return `embedded-${randomBytes(18).toString('base64url')}`;
  throw new RunError('ERR_CONFIG', 'no API key: set PETSTORE_API_KEY or pass --api-key-file FILE');
}

function resolveBaseUrl(flags: { 'base-url'?: string }, env: Env): string | undefined {
  const raw = flags['base-url'] ?? (env['PETSTORE_BASE_URL'] || undefined);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Text that is no URL may still hold a key: only its length is told.
    throw new RunError('ERR_USAGE', `--base-url is not a URL (${raw.length} characters; it must start with http:// or https://)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RunError('ERR_USAGE', `--base-url must be http or https, got '${url.protocol}'`);
  if (url.username !== '' || url.password !== '')
    throw new RunError('ERR_USAGE', '--base-url must not carry credentials; use PETSTORE_API_KEY');
  if (url.search !== '' || url.hash !== '')
    throw new RunError(
      'ERR_USAGE',
      `--base-url must not have a query or fragment: '${safeUrl(raw)}' (the query is not shown: it may hold a secret)`,
    );
  return url.href.replace(/\/$/, '');
}

function parseCategoryId(value: string | undefined): JsonValue {
  if (value === undefined) return 1;
  if (!/^-?\d{1,19}$/.test(value)) throw new RunError('ERR_USAGE', `--category-id must be an int64 integer, got '${value}'`);
  const big = BigInt(value);
  return Number.isSafeInteger(Number(big)) ? Number(big) : big;
}

/** Flags, with those left unset filled from the configuration file; flags and environment variables win. */
async function withConfig<F extends { config?: string }>(
  flags: F,
  command: 'run' | 'load',
  env: Env,
): Promise<{ flags: F; config: SuiteConfig | undefined }> {
  const file = flags.config ?? (env['PETSTORE_CONFIG'] || undefined);
  if (file === undefined) return { flags, config: undefined };
  const config = await loadConfig(path.resolve(file), (await packageContract()).fileValidator('config.schema.json'), process.cwd());
  const set = (name: string): boolean => (env[name] ?? '') !== '';
  const defaults: Record<string, string | boolean | string[] | undefined> = {
    'base-url': set('PETSTORE_BASE_URL') ? undefined : config.baseUrl,
    'api-key-file': set('PETSTORE_API_KEY') ? undefined : config.apiKeyFile,
    'category-id': set('PETSTORE_CATEGORY_ID') ? undefined : config.categoryId,
    'ca-file': config.caFile,
    'client-cert': config.clientCert,
    'client-key': config.clientKey,
    suite: config.suites,
    reporter: config.reporters,
    'report-dir': config.reportDir,
    'read-only': config.readOnly,
    strict: config.strict,
    concurrency: config.concurrency === undefined ? undefined : String(config.concurrency),
    'consistency-window': config.consistencyWindowMs === undefined ? undefined : String(config.consistencyWindowMs),
    timeout: config.timeoutMs === undefined ? undefined : String(config.timeoutMs),
    'rate-limit': config.rateLimit === undefined ? undefined : String(config.rateLimit),
    'max-wait': config.maxWaitSeconds === undefined ? undefined : String(config.maxWaitSeconds),
    'wait-budget': config.waitBudgetSeconds === undefined ? undefined : String(config.waitBudgetSeconds),
  };
  const accepted = optionNames(command);
  const filled = Object.fromEntries(Object.entries(defaults).filter(([name, value]) => value !== undefined && accepted.has(name)));
  return { flags: { ...filled, ...flags }, config };
}

/** The production entry of the configuration a base URL falls under, if any. */
function productionOf(baseUrl: string | undefined, config: SuiteConfig | undefined): string | undefined {
  return baseUrl === undefined || config === undefined ? undefined : productionMark(baseUrl, config.production);
}

/** Refuses load against a base URL the configuration or the profile marks as production, unless allowed: before anything is printed or sent. */
function refuseProduction(baseUrl: string | undefined, config: SuiteConfig | undefined, profile: LoadProfile, allowed: boolean): void {
  if (baseUrl === undefined) return;
  if (config !== undefined) refuseProductionLoad(baseUrl, config.production, config.file, allowed);
  refuseProductionLoad(baseUrl, profile.production, profile.file, allowed);
}

/** The flags that say how to reach the service. */
type TargetFlags = Pick<RunFlags, 'base-url' | 'api-key-file' | 'ca-file' | 'client-cert' | 'client-key' | 'header'>;

async function resolveTarget(flags: TargetFlags, env: Env, config: SuiteConfig | undefined): Promise<Target> {
  const baseUrl = resolveBaseUrl(flags, env);
  const ca = flags['ca-file'] === undefined ? undefined : await readSecretFile(flags['ca-file'], '--ca-file', false);
  const apiKey = await resolveApiKey(flags, baseUrl === undefined, env);
  const clientCertificate = await resolveClientCertificate(flags, baseUrl, env);
  // The configuration's headers first, then the flags': a name given again takes the later value.
  const given = [
    ...Object.entries(config?.headers ?? {}).map(([name, value]) => extraHeader(name, value, `${config?.file ?? 'config'}: headers`)),
    ...(flags.header ?? []).map(parseHeaderFlag),
  ];
  const headers = [...new Map(given.map((h) => [h.name.toLowerCase(), h])).values()];
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
  };
}

/** --client-cert and --client-key, together, for an https service; a pair that does not load is one line. */
async function resolveClientCertificate(flags: TargetFlags, baseUrl: string | undefined, env: Env): Promise<ClientCertificate | undefined> {
  const certFile = flags['client-cert'];
  const keyFile = flags['client-key'];
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined)
    throw new RunError(
      'ERR_USAGE',
      `${certFile === undefined ? '--client-key needs --client-cert' : '--client-cert needs --client-key'}: mutual TLS takes the certificate and its key`,
    );
  if (baseUrl === undefined || !baseUrl.startsWith('https:'))
    throw new RunError('ERR_USAGE', '--client-cert: mutual TLS needs an https --base-url');
  const cert = await readSecretFile(certFile, '--client-cert', false);
  const key = await readSecretFile(keyFile, '--client-key', true);
  const passphrase = env['PETSTORE_CLIENT_KEY_PASSPHRASE'] || undefined;
  const certificate: ClientCertificate = { cert, key, ...(passphrase === undefined ? {} : { passphrase }) };
  try {
    createSecureContext(certificate);
  } catch (error) {
    // OpenSSL's words ('key values mismatch', 'bad decrypt') without its error-queue prefix.
    const reason = (error as Error).message.replace(/^error:[0-9A-Fa-f]+:[^:]*::?/, '');
    throw new RunError(
      'ERR_CONFIG',
      `--client-cert ${certFile} with --client-key ${keyFile}: ${reason}${/decrypt|passphrase/i.test(reason) && passphrase === undefined ? ' (an encrypted key reads its passphrase from PETSTORE_CLIENT_KEY_PASSPHRASE)' : ''}`,
    );
  }
  return certificate;
}

/** What report.json records of how the service was reached: header names (not values), the proxy without credentials, mutual TLS. */
function connectionRecord(target: Target): Record<string, string | boolean | string[]> {
  const proxy =
    target.baseUrl === undefined || target.proxies === undefined ? undefined : proxyFor(new URL(target.baseUrl), target.proxies);
  return {
    ...(target.headers === undefined ? {} : { headers: target.headers.map((h) => h.name) }),
    ...(proxy === undefined ? {} : { proxy: proxy.url }),
    ...(target.clientCertificate === undefined ? {} : { clientCertificate: true }),
  };
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

/** Refuses a run whose report.json would overwrite a file the user gave it (a baseline, a report to merge). */
function refuseOverwrite(reportDir: string, inputs: ReadonlyArray<[string, string]>): void {
  const output = path.join(reportDir, 'report.json');
  const clash = inputs.find(([, file]) => path.resolve(file) === output);
  if (clash)
    throw new RunError(
      'ERR_USAGE',
      `${clash[0]} ${clash[1]} is the report this run writes; copy it elsewhere first or choose another --report-dir`,
    );
}

async function readProfile(argument: string): Promise<LoadProfile> {
  const file = await resolveProfilePath(argument, packagePath('scenarios', LOAD_PROFILE_FOLDER));
  return loadProfile(file, (await packageContract()).fileValidator('load-profile.schema.json'), packagePath());
}

/** The environment variables a run reads (PETSTORE_*, NO_COLOR). */
export type Env = Readonly<Record<string, string | undefined>>;

type LoadFlagSet = Pick<LoadFlags, 'baseline' | 'baseline-tolerance' | 'allow-production-load' | 'workers'>;

async function loadPlan(declared: LoadProfile, flags: LoadFlagSet, reportDir: string): Promise<LoadPlan> {
  const profile = flags.workers === undefined ? declared : { ...declared, workers: intFlag('workers', flags.workers, 1, 1, MAX_WORKERS) };
  const plan: LoadPlan = { profile, allowProductionLoad: flags['allow-production-load'] === true };
  const tolerance = shareFlag('baseline-tolerance', flags['baseline-tolerance'], profile.baselineTolerance);
  if (flags.baseline !== undefined) {
    refuseOverwrite(reportDir, [['--baseline', flags.baseline]]);
    plan.baseline = { file: flags.baseline, metrics: await readBaseline(flags.baseline), tolerance };
  }
  return plan;
}

/** `--rate-limit N` (or `N/s`), `--max-wait S`, `--wait-budget S`. */
function pacingOf(flags: Pick<RunFlags, 'rate-limit' | 'max-wait' | 'wait-budget'>): PacingOptions {
  const rate = flags['rate-limit']?.replace(/\/s$/, '');
  const pacing: PacingOptions = {
    maxWaitMs: intFlag('max-wait', flags['max-wait'], DEFAULT_PACING.maxWaitMs / 1000, 0, 3600) * 1000,
    waitBudgetMs: intFlag('wait-budget', flags['wait-budget'], DEFAULT_PACING.waitBudgetMs / 1000, 0, 86_400) * 1000,
  };
  if (rate !== undefined) pacing.ratePerSecond = intFlag('rate-limit', rate, 0, 1, 100_000);
  return pacing;
}

/** The phases `--phase` names: the declared and contract-generated cases (examples), and the three generated phases. */
const PHASES = ['examples', 'coverage', 'fuzz', 'stateful'] as const;

/** The suites a run selects: --suite, narrowed (or, alone, given) by --phase; empty selects all. */
function selectPhases(suites: readonly string[], phases: readonly string[], all: readonly string[]): string[] {
  const unknown = phases.filter((p) => !(PHASES as readonly string[]).includes(p));
  if (unknown.length > 0) throw new RunError('ERR_USAGE', `unknown phase '${unknown.join("', '")}'; the phases are: ${PHASES.join(', ')}`);
  if (phases.length === 0) return [...suites];
  const phased = all.filter((name) => ((PHASES as readonly string[]).includes(name) ? phases.includes(name) : phases.includes('examples')));
  return suites.length === 0 ? phased : suites.filter((s) => phased.includes(s));
}

/** A plan and where its reports go. */
export interface PlannedRun {
  plan: RunPlan;
  reportDir: string;
  /** A line to show before the run (e.g. that a production URL is run read-only). */
  notice?: string;
}

/** `run [--load PROFILE]`: the conformance cases, and a load profile when asked. */
export async function planRun(parsed: RunFlags, env: Env): Promise<PlannedRun> {
  const { flags, config } = await withConfig(parsed, 'run', env);
  const target = await resolveTarget(flags, env, config);
  const production = productionOf(target.baseUrl, config);
  // A production service is never written to, whatever the flags say: the configuration marked it.
  const readOnly = flags['read-only'] === true || production !== undefined;
  const inputs = await loadCaseInputs(packageFolders(flags.scenarios ?? []), flags.suite ?? []);
  const selectedSuites = selectPhases(
    flags.suite ?? [],
    flags.phase ?? [],
    inputs.suites.map((s) => s.name),
  );
  const { cases, createdPetCases, phase } = selectCases(inputs, selectedSuites, flags.check ?? []);
  const skipped = skippedIds(flags['skip-check'] ?? [], knownIds(cases));
  const reportDir = path.resolve(flags['report-dir'] ?? 'reports');
  const profile = flags.load === undefined ? undefined : await readProfile(flags.load);
  if (profile !== undefined) refuseProduction(target.baseUrl, config, profile, flags['allow-production-load'] === true);
  // Every id the package knows, not only the selected ones: a team's disable list holds ids of every suite.
  if (config !== undefined)
    checkDisabledIds(config, new Set([...knownIds(inputs.cases), ...(profile === undefined ? [] : [`load.${profile.name}`])]));
  const concurrency = intFlag('concurrency', flags.concurrency, 4, 1, 64);
  const consistencyWindowMs = intFlag('consistency-window', flags['consistency-window'], 2_000, 0, 120_000);
  const categoryId = parseCategoryId(flags['category-id'] ?? (env['PETSTORE_CATEGORY_ID'] || undefined));
  const pacing = pacingOf(flags);
  // The fuzzing phase draws from a seed: given, or random and recorded so that --seed replays the run's requests.
  const seed = intFlag('seed', flags.seed, randomInt(2 ** 31), 0, 2 ** 31 - 1);
  const maxExamples = intFlag('max-examples', flags['max-examples'], DEFAULT_MAX_EXAMPLES, 1, 10_000);
  const maxWrites = intFlag('max-writes', flags['max-writes'], DEFAULT_MAX_WRITES, 0, 1_000_000);
  const fuzz = phase('fuzz') ? { seed, maxExamples } : undefined;
  // A sequence is several requests: a third as many sequences as examples.
  const stateful = phase('stateful') ? { seed, sequences: Math.max(1, Math.ceil(maxExamples / 3)) } : undefined;
  const plan: RunPlan = {
    ...basePlan(inputs.contract, target, config, skipped),
    conformance: {
      cases,
      suites: selectedSuites.length > 0 ? selectedSuites : inputs.suites.map((s) => s.name),
      createdPetCases,
      readOnly,
      concurrency,
      consistencyWindowMs,
      categoryId,
      pacing,
      maxWrites,
      ...(fuzz === undefined ? {} : { fuzz }),
      ...(stateful === undefined ? {} : { stateful }),
    },
    now: dateFlag(flags.now),
    strict: flags.strict === true,
    requestTimeoutMs: intFlag('timeout', flags.timeout, DEFAULT_HTTP_OPTIONS.requestTimeoutMs, 100, 600_000),
    maxResponseBytes: intFlag('max-response-bytes', flags['max-response-bytes'], DEFAULT_HTTP_OPTIONS.maxResponseBytes, 1024, 1024 ** 3),
    recordedOptions: {
      readOnly,
      strict: flags.strict === true,
      concurrency,
      consistencyWindowMs,
      categoryId: String(categoryId),
      reportDir,
      maxWaitSeconds: pacing.maxWaitMs / 1000,
      waitBudgetSeconds: pacing.waitBudgetMs / 1000,
      ...(pacing.ratePerSecond === undefined ? {} : { rateLimit: pacing.ratePerSecond }),
      ...(profile === undefined ? {} : { profile: profile.name }),
      maxWrites,
      ...(fuzz === undefined && stateful === undefined ? {} : { seed, maxExamples }),
      ...connectionRecord(target),
    },
  };
  if (profile !== undefined) plan.load = await loadPlan(profile, flags, reportDir);
  const notice =
    production !== undefined && flags['read-only'] !== true
      ? `${target.baseUrl ?? ''} is marked production in ${config?.file ?? ''}: read-only`
      : undefined;
  return notice === undefined ? { plan, reportDir } : { plan, reportDir, notice };
}

/** `load PROFILE`: the profile alone against the service (or the embedded reference server). */
export async function planLoad(positionals: readonly string[], parsed: LoadFlags, env: Env): Promise<PlannedRun> {
  if (positionals.length !== 1)
    throw new RunError('ERR_USAGE', `'load' takes one profile (a name in scenarios/load or a file), got ${positionals.length}`);
  const profile = await readProfile(positionals[0] as string);
  const { flags, config } = await withConfig(parsed, 'load', env);
  const reportDir = path.resolve(flags['report-dir'] ?? 'reports');
  const load = await loadPlan(profile, flags, reportDir);
  const target = await resolveTarget(flags, env, config);
  refuseProduction(target.baseUrl, config, profile, flags['allow-production-load'] === true);
  if (config !== undefined) checkDisabledIds(config, knownIds([]).add(`load.${profile.name}`));
  return {
    plan: {
      ...basePlan(await packageContract(), target, config),
      load,
      recordedOptions: {
        profile: profile.name,
        ...(flags.baseline === undefined ? {} : { baseline: flags.baseline }),
        ...connectionRecord(target),
      },
    },
    reportDir,
  };
}

/** `merge REPORT...`: the raw results of runs made at once on several machines, judged again by the first one's thresholds. */
export async function planMerge(positionals: readonly string[], flags: LoadFlags): Promise<PlannedRun> {
  if (positionals.length < 1) throw new RunError('ERR_USAGE', "'merge' takes the report.json files of the runs to merge");
  if (flags.workers !== undefined) throw new RunError('ERR_USAGE', "'merge' generates no load: --workers belongs to run --load and load");
  const reportDir = path.resolve(flags['report-dir'] ?? 'reports');
  refuseOverwrite(
    reportDir,
    positionals.map((file): [string, string] => ['merge input', file]),
  );
  const loads = await readLoadReports(positionals);
  const { baseline } = await loadPlan((loads[0] as (typeof loads)[number]).profile, flags, reportDir);
  const merge = baseline === undefined ? { loads } : { loads, baseline };
  return {
    plan: { ...basePlan(await packageContract(), { apiKey: '' }, undefined), merge, recordedOptions: { merged: [...positionals] } },
    reportDir,
  };
}

/** What a run judges: the cases of the selected suites that --check names (all without it), the created-pet cases alike, and whether each generated phase runs. */
function selectCases(
  inputs: CaseInputs,
  selectedSuites: readonly string[],
  globs: readonly string[],
): { cases: CaseSpec[]; createdPetCases: string[]; phase: (name: 'fuzz' | 'stateful') => boolean } {
  const inSelection = (suite: string): boolean => selectedSuites.length === 0 || selectedSuites.includes(suite);
  const only = globs.map((glob) => ({ glob, pattern: idGlob(glob) }));
  const checked = (id: string): boolean => only.length === 0 || only.some(({ pattern }) => pattern.test(id));
  const inSuites = inputs.cases.filter((c) => inSelection(c.suite));
  const createdInSuites = CREATED_PET_CASES.filter((c) => inSelection(c.suite)).map((c) => c.id);
  const generatedIds = { fuzz: fuzzCaseInfos(inputs.contract).map((c) => c.id), stateful: [STATEFUL_CASE.id] };
  const candidates = [
    ...inSuites.map((c) => c.id),
    ...createdInSuites,
    ...Object.entries(generatedIds).flatMap(([suite, ids]) => (inSelection(suite) ? ids : [])),
  ];
  // A glob that names nothing is a typo: it never silently runs everything, or nothing.
  for (const { glob, pattern } of only)
    if (!candidates.some((id) => pattern.test(id)))
      throw new RunError(
        'ERR_USAGE',
        `--check '${glob}' matches no case${selectedSuites.length === 0 ? '' : ' of the selected suites'}; see docs/checks.md or the catalogue command for the ids`,
      );
  return {
    cases: inSuites.filter((c) => checked(c.id)),
    createdPetCases: createdInSuites.filter(checked),
    // A generated phase runs whole when it is selected and, under --check, when a glob names one of its cases.
    phase: (name) => inSelection(name) && generatedIds[name].some(checked),
  };
}

/** A glob over ids (`*` any run of characters, `?` one), as a whole-id pattern. */
export function idGlob(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
}

/** The check and case ids each --skip-check glob names, with the flag as the reason; a glob that names nothing is a usage error. */
function skippedIds(globs: readonly string[], known: ReadonlySet<string>): Array<{ id: string; reason: string }> {
  return globs.flatMap((glob) => {
    const ids = [...known].filter((id) => idGlob(glob).test(id));
    if (ids.length === 0)
      throw new RunError(
        'ERR_USAGE',
        `--skip-check '${glob}' matches no check or case; see docs/checks.md or the catalogue command for the ids`,
      );
    return ids.map((id) => ({ id, reason: `--skip-check ${glob}` }));
  });
}

/** The settings a load or a merge shares with a run, at their defaults. */
function basePlan(
  contract: LoadedContract,
  target: Target,
  config: SuiteConfig | undefined,
  skipped: ReadonlyArray<{ id: string; reason: string }> = [],
): Omit<RunPlan, 'recordedOptions'> {
  return {
    contract,
    target,
    now: new Date(),
    strict: false,
    requestTimeoutMs: DEFAULT_HTTP_OPTIONS.requestTimeoutMs,
    maxResponseBytes: DEFAULT_HTTP_OPTIONS.maxResponseBytes,
    excerptBytes: 2048,
    disabled: [...(config?.disable ?? []).map(({ id, reason }) => ({ id, reason })), ...skipped],
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
