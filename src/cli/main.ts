#!/usr/bin/env node
/** The petstore-conformance command: argv and config → plan → run → exit code. The only place that prints errors directly and calls process.exit. */
import { executePlan } from '../engine/run.js';
import { loadCaseInputs } from '../engine/plan.js';
import { packageVersion } from '../loader/package-paths.js';
import { RunError } from '../model/errors.js';
import type { RunReport } from '../model/results.js';
import { renderCatalogue } from '../reporters/catalogue.js';
import { LoadConsoleReporter } from '../reporters/load-console-reporter.js';
import { ReporterFanOut } from '../reporters/reporter.js';
import { createReporters, parseReporterNames, type ReporterName } from '../reporters/reporter-registry.js';
import { DEVELOPMENT_API_KEY, startReferenceServer, type RunningServer } from '../server/reference-server.js';
import { VARIANTS, variantServerOptions } from '../server/variants.js';
import { HELP, intFlag, parseLoadFlags, parseRunFlags, parseServeFlags, splitCommand } from './args.js';
import { packageFolders, planLoad, planMerge, planRun, useColor, type PlannedRun } from './plan.js';

/** Exit codes, as the README documents them. */
export const EXIT = { passed: 0, failed: 1, cannotRun: 2, interrupted: 130 } as const;

const PROGRAM = 'petstore-conformance';

/** Where `serve --big-ids` starts handing out ids: well beyond what a double holds exactly. */
const BIG_IDS_FROM = 2n ** 60n + 1n;

/** The one interruption of this process: the first Ctrl-C stops the run cleanly (it still reports), the second exits at once. */
const interruption = new AbortController();

/** The exit code of a finished run: its verdict, unless it was interrupted or a report it should have written is missing. */
function exitCodeOf(report: RunReport, reporterFailures: number): number {
  if (report.interrupted === true) return EXIT.interrupted;
  const code = { passed: EXIT.passed, failed: EXIT.failed, incomplete: EXIT.cannotRun }[report.verdict];
  // A run that would pass but lost a report cannot be trusted by a pipeline that reads that report.
  return code === EXIT.passed && reporterFailures > 0 ? EXIT.cannotRun : code;
}

/** Runs a plan with the chosen reporters and turns the report into an exit code. */
async function execute(planned: PlannedRun, reporterNames: readonly ReporterName[], flags: { quiet?: boolean; 'no-color'?: boolean }): Promise<number> {
  const quiet = flags.quiet === true;
  if (planned.notice !== undefined && !quiet) process.stdout.write(`${planned.notice}\n`);
  const showsConsole = reporterNames.includes('console');
  const consoleOptions = { stream: process.stdout, color: useColor(flags), quiet };
  const loadConsole = new LoadConsoleReporter({ stream: process.stdout, quiet: quiet || !showsConsole });
  const fanOut = new ReporterFanOut([...(showsConsole ? [loadConsole] : []), ...createReporters(reporterNames, planned.reportDir, consoleOptions)]);
  const report = await executePlan(planned.plan, fanOut, interruption.signal);
  for (const failure of fanOut.failures) process.stderr.write(`${PROGRAM}: the ${failure.reporter} reporter failed: ${failure.message}\n`);
  return exitCodeOf(report, fanOut.failures.length);
}

async function runCommand(args: string[]): Promise<number> {
  const flags = parseRunFlags(args);
  if (flags.help) return printHelp();
  if (flags.version) return printVersion();
  const reporterNames = parseReporterNames(flags.reporter);
  return execute(await planRun(flags), reporterNames, flags);
}

async function loadOrMergeCommand(command: 'load' | 'merge', args: string[]): Promise<number> {
  const { positionals, flags } = parseLoadFlags(args, command);
  if (flags.help === true) return printHelp();
  const planned = command === 'load' ? await planLoad(positionals, flags) : await planMerge(positionals, flags);
  return execute(planned, ['console', 'json'], flags);
}

async function catalogueCommand(args: string[]): Promise<number> {
  if (args.length > 0) throw new RunError('ERR_USAGE', "'catalogue' takes no arguments");
  const inputs = await loadCaseInputs(packageFolders([]), []);
  process.stdout.write(renderCatalogue(inputs.cases));
  return EXIT.passed;
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
    case 'merge':
      return loadOrMergeCommand(command, args);
  }
}

process.on('SIGINT', () => {
  // The run stops starting cases (or stops its load) and still reports what it did; a second Ctrl-C exits at once.
  if (!interruption.signal.aborted) {
    interruption.abort();
    return;
  }
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
