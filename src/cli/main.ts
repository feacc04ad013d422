#!/usr/bin/env node
/** The petstore-conformance command: the only place that prints errors directly and calls process.exit. */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_HTTP_OPTIONS } from '../http/client.js';
import { productionMark, loadConfig, type SuiteConfig } from '../loader/config.js';
import { loadContract } from '../loader/contract.js';
import { packagePath, packageVersion } from '../loader/package-paths.js';
import { executeRun, loadRunInputs, type InputFolders, type RunSettings } from '../engine/run.js';
import { RunError } from '../model/errors.js';
import type { JsonValue } from '../model/json.js';
import type { RunReport } from '../model/results.js';
import { renderCatalogue } from '../reporters/catalogue.js';
import { ReporterFanOut } from '../reporters/reporter.js';
import { LoadConsoleReporter } from '../reporters/load-console-reporter.js';
import { createReporters, parseReporterNames } from '../reporters/reporter-registry.js';
import { DEVELOPMENT_API_KEY, startReferenceServer, type RunningServer } from '../server/reference-server.js';
import { VARIANTS, variantServerOptions } from '../server/variants.js';
import { dateFlag, HELP, intFlag, optionNames, parseRunFlags, parseServeFlags, splitCommand, type LoadFlags, type RunFlags } from './args.js';
import { addLoadToRun, finishReport, interruption, loadCommand, mergeCommand, prepareRunLoad, type Target } from './load-command.js';

/** Exit codes, as the README documents them. */
export const EXIT = { passed: 0, failed: 1, cannotRun: 2, interrupted: 130 } as const;

const PROGRAM = 'petstore-conformance';

/** Where `serve --big-ids` starts handing out ids: well beyond what a double holds exactly. */
const BIG_IDS_FROM = 2n ** 60n + 1n;

async function readSecretFile(file: string, what: string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    throw new RunError('ERR_CONFIG', `${what} ${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

async function resolveApiKey(flags: RunFlags, embedded: boolean): Promise<string> {
  if (flags['api-key-file'] !== undefined) {
    const key = await readSecretFile(flags['api-key-file'], '--api-key-file');
    if (key === '') throw new RunError('ERR_CONFIG', `--api-key-file ${flags['api-key-file']}: the file is empty`);
    return key;
  }
  const fromEnv = process.env['PETSTORE_API_KEY'];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (embedded) return `embedded-${randomBytes(18).toString('base64url')}`;
  throw new RunError('ERR_CONFIG', 'no API key: set PETSTORE_API_KEY or pass --api-key-file FILE');
}

function resolveBaseUrl(flags: RunFlags): string | undefined {
  const raw = flags['base-url'] ?? (process.env['PETSTORE_BASE_URL'] || undefined);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RunError('ERR_USAGE', `--base-url is not a URL: '${raw}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RunError('ERR_USAGE', `--base-url must be http or https, got '${url.protocol}'`);
  if (url.username !== '' || url.password !== '') throw new RunError('ERR_USAGE', '--base-url must not carry credentials; use PETSTORE_API_KEY');
  if (url.search !== '' || url.hash !== '') throw new RunError('ERR_USAGE', `--base-url must not have a query or fragment: '${raw}'`);
  return url.href.replace(/\/$/, '');
}

function parseCategoryId(value: string | undefined): JsonValue {
  if (value === undefined) return 1;
  if (!/^-?\d{1,19}$/.test(value)) throw new RunError('ERR_USAGE', `--category-id must be an int64 integer, got '${value}'`);
  const big = BigInt(value);
  return Number.isSafeInteger(Number(big)) ? Number(big) : big;
}

/** Flags, with those left unset filled from the configuration file; flags and environment variables win. */
async function withConfig<F extends { config?: string }>(flags: F, command: 'run' | 'load'): Promise<{ flags: F; config: SuiteConfig | undefined }> {
  const file = flags.config ?? (process.env['PETSTORE_CONFIG'] || undefined);
  if (file === undefined) return { flags, config: undefined };
  const contract = await loadContract(packagePath('schemas'));
  const config = await loadConfig(path.resolve(file), contract.fileValidator('config.schema.json'), process.cwd());
  const env = (name: string): boolean => (process.env[name] ?? '') !== '';
  const defaults: Record<string, string | boolean | string[] | undefined> = {
    'base-url': env('PETSTORE_BASE_URL') ? undefined : config.baseUrl,
    'api-key-file': env('PETSTORE_API_KEY') ? undefined : config.apiKeyFile,
    'category-id': env('PETSTORE_CATEGORY_ID') ? undefined : config.categoryId,
    'ca-file': config.caFile,
    suite: config.suites,
    reporter: config.reporters,
    'report-dir': config.reportDir,
    'read-only': config.readOnly,
    strict: config.strict,
    concurrency: config.concurrency === undefined ? undefined : String(config.concurrency),
    'consistency-window': config.consistencyWindowMs === undefined ? undefined : String(config.consistencyWindowMs),
    timeout: config.timeoutMs === undefined ? undefined : String(config.timeoutMs),
  };
  const accepted = optionNames(command);
  const filled = Object.fromEntries(Object.entries(defaults).filter(([name, value]) => value !== undefined && accepted.has(name)));
  return { flags: { ...filled, ...flags }, config };
}

/** Refuses load against a base URL the configuration marks as production, unless allowed. */
function refuseProductionLoad(baseUrl: string | undefined, config: SuiteConfig | undefined, allowed: boolean): void {
  const mark = baseUrl === undefined || config === undefined ? undefined : productionMark(baseUrl, config.production);
  if (mark !== undefined && !allowed) throw new RunError('ERR_CONFIG', `${baseUrl ?? ''} is marked production in ${config?.file ?? ''} (${mark}); refusing to load it without --allow-production-load`);
}

function useColor(flags: RunFlags): boolean {
  return flags['no-color'] !== true && process.env['NO_COLOR'] === undefined && process.stdout.isTTY === true;
}

async function runCommand(args: string[]): Promise<number> {
  const parsed = parseRunFlags(args);
  if (parsed.help) return printHelp();
  if (parsed.version) return printVersion();
  const { flags, config } = await withConfig(parsed, 'run');
  const reporterNames = parseReporterNames(flags.reporter);
  const baseUrl = resolveBaseUrl(flags);
  if (flags.load !== undefined) refuseProductionLoad(baseUrl, config, flags['allow-production-load'] === true);
  const production = baseUrl === undefined || config === undefined ? undefined : productionMark(baseUrl, config.production);
  // A production service is never written to, whatever the flags say: the configuration marked it.
  const readOnly = flags['read-only'] === true || production !== undefined;
  if (production !== undefined && flags['read-only'] !== true && flags.quiet !== true) process.stdout.write(`${baseUrl ?? ''} is marked production in ${config?.file ?? ''}: read-only\n`);
  const apiKey = await resolveApiKey(flags, baseUrl === undefined);
  const ca = flags['ca-file'] === undefined ? undefined : await readSecretFile(flags['ca-file'], '--ca-file');
  const selectedSuites = flags.suite ?? [];
  const now = dateFlag(flags.now);
  const settingsBase = {
    concurrency: intFlag('concurrency', flags.concurrency, 4, 1, 64),
    consistencyWindowMs: intFlag('consistency-window', flags['consistency-window'], 2_000, 0, 120_000),
    requestTimeoutMs: intFlag('timeout', flags.timeout, DEFAULT_HTTP_OPTIONS.requestTimeoutMs, 100, 600_000),
    maxResponseBytes: intFlag('max-response-bytes', flags['max-response-bytes'], DEFAULT_HTTP_OPTIONS.maxResponseBytes, 1024, 1024 ** 3),
  };
  const categoryId = parseCategoryId(flags['category-id'] ?? (process.env['PETSTORE_CATEGORY_ID'] || undefined));
  const reportDir = path.resolve(flags['report-dir'] ?? 'reports');
  const inputs = await loadRunInputs(packageFolders(flags.scenarios ?? []), selectedSuites);
  const load = await prepareRunLoad(flags);
  const consoleOptions = { stream: process.stdout, color: useColor(flags), quiet: flags.quiet === true };
  const showsConsole = reporterNames.includes('console');
  const loadConsole = new LoadConsoleReporter({ stream: process.stdout, quiet: consoleOptions.quiet || !showsConsole });
  const fanOut = new ReporterFanOut([...(showsConsole ? [loadConsole] : []), ...createReporters(reporterNames, reportDir, consoleOptions)]);
  let server: RunningServer | undefined;
  try {
    if (baseUrl === undefined) {
      try {
        // The embedded server keeps the suite's clock, so --now tests both sides of getPet's removal.
        server = await startReferenceServer({ apiKey, host: '127.0.0.1', port: 0, now: () => now });
      } catch (error) {
        throw new RunError('ERR_SERVER_START', `cannot start the embedded reference server: ${(error as Error).message}`);
      }
    }
    const settings: RunSettings = {
      http: {
        ...DEFAULT_HTTP_OPTIONS,
        baseUrl: baseUrl ?? (server as RunningServer).baseUrl,
        apiKey,
        requestTimeoutMs: settingsBase.requestTimeoutMs,
        headersTimeoutMs: Math.min(DEFAULT_HTTP_OPTIONS.headersTimeoutMs, settingsBase.requestTimeoutMs),
        maxResponseBytes: settingsBase.maxResponseBytes,
        connections: Math.max(settingsBase.concurrency, 1),
        ...(ca === undefined ? {} : { ca }),
      },
      embeddedServer: baseUrl === undefined,
      selectedSuites,
      now,
      readOnly,
      strict: flags.strict === true,
      concurrency: settingsBase.concurrency,
      consistencyWindowMs: settingsBase.consistencyWindowMs,
      categoryId,
      excerptBytes: 2048,
      recordedOptions: {
        readOnly,
        strict: flags.strict === true,
        concurrency: settingsBase.concurrency,
        consistencyWindowMs: settingsBase.consistencyWindowMs,
        categoryId: String(categoryId),
        reportDir,
      },
    };
    // Ctrl-C during the checks: the run stops starting checks and still writes its reports.
    const controller = new AbortController();
    interruption.controller = controller;
    const report: RunReport = await executeRun(inputs, { ...settings, signal: controller.signal }, fanOut).finally(() => {
      interruption.controller = undefined;
    });
    const loadInterrupted = report.interrupted === true || (await addLoadToRun(report, load, settings.http, settings.strict, loadConsole));
    return await finishReport(fanOut, report, flags.quiet === true, loadInterrupted, EXIT);
  } finally {
    await server?.close();
  }
}

async function catalogueCommand(args: string[]): Promise<number> {
  if (args.length > 0) throw new RunError('ERR_USAGE', "'catalogue' takes no arguments");
  const inputs = await loadRunInputs(packageFolders([]), []);
  process.stdout.write(renderCatalogue(inputs.checks));
  return EXIT.passed;
}

function packageFolders(extraScenarioDirs: readonly string[]): InputFolders {
  return {
    schemasDir: packagePath('schemas'),
    scenarioDirs: [packagePath('scenarios'), ...extraScenarioDirs.map((d) => path.resolve(d))],
    suitesDir: packagePath('suites'),
    displayRoot: packagePath(),
  };
}

/** Where `load` sends its traffic and with which key: resolved exactly as `run` resolves it. */
async function resolveLoadTarget(parsed: LoadFlags): Promise<Target> {
  const { flags, config } = await withConfig(parsed, 'load');
  const baseUrl = resolveBaseUrl(flags);
  refuseProductionLoad(baseUrl, config, flags['allow-production-load'] === true);
  const ca = flags['ca-file'] === undefined ? undefined : await readSecretFile(flags['ca-file'], '--ca-file');
  return { baseUrl, apiKey: await resolveApiKey(flags, baseUrl === undefined), ca };
}

async function serveCommand(args: string[]): Promise<number> {
  const flags = parseServeFlags(args);
  if (flags.help) return printHelp();
  const variant = flags.variant === undefined ? undefined : VARIANTS.find((v) => v.name === flags.variant);
  if (flags.variant !== undefined && variant === undefined) throw new RunError('ERR_USAGE', `unknown variant '${flags.variant}'; the variants are: ${VARIANTS.map((v) => v.name).join(', ')}`);
  const port = intFlag('port', flags.port, 8080, 0, 65535);
  const host = flags.host ?? '127.0.0.1';
  const fromEnv = process.env['PETSTORE_API_KEY'];
  const apiKey = fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEVELOPMENT_API_KEY;
  let server: RunningServer;
  try {
    server = await startReferenceServer({ apiKey, host, port, ...(flags['big-ids'] === true ? { firstId: BIG_IDS_FROM } : {}), ...(variant ? variantServerOptions(variant) : {}) });
  } catch (error) {
    throw new RunError('ERR_SERVER_START', `cannot listen on ${host}:${port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const keySource = apiKey === DEVELOPMENT_API_KEY ? `the development default '${DEVELOPMENT_API_KEY}'` : 'PETSTORE_API_KEY';
  process.stdout.write(`reference pet store listening on ${server.baseUrl} (API key: ${keySource}); Ctrl-C stops it\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return EXIT.passed;
}

function printHelp(): number {
  process.stdout.write(HELP);
  return EXIT.passed;
}

function printVersion(): number {
  process.stdout.write(`${packageVersion()}\n`);
  return EXIT.passed;
}

async function main(argv: string[]): Promise<number> {
  const { command, args } = splitCommand(argv);
  switch (command) {
    case 'help':
      return printHelp();
    case 'version':
      return printVersion();
    case 'serve':
      return serveCommand(args);
    case 'catalogue':
      return catalogueCommand(args);
    case 'run':
      return runCommand(args);
    case 'load':
      return loadCommand(args, resolveLoadTarget, EXIT);
    case 'merge':
      return mergeCommand(args, EXIT);
  }
}

process.on('SIGINT', () => {
  // A running load stops cleanly and still reports what it measured; a second Ctrl-C exits at once.
  if (interruption.request()) return;
  process.stderr.write(`${PROGRAM}: interrupted\n`);
  process.exit(EXIT.interrupted);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof RunError) {
      process.stderr.write(`${PROGRAM}: ${error.message}\n`);
      for (const detail of error.details) process.stderr.write(`  ${detail}\n`);
    } else {
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(`${PROGRAM}: internal error: ${message.split('\n')[0] ?? ''}\n`);
      if (process.env['PETSTORE_DEBUG']) process.stderr.write(`${error instanceof Error ? (error.stack ?? '') : ''}\n`);
    }
    process.exitCode = EXIT.cannotRun;
  },
);
