/** The petstore-conformance command as a function: argv and config → plan → run → exit code, its streams and environment given. */
import path from 'node:path';
import { executePlan, RunStoppedError } from '../engine/run.js';
import { startEmbedded } from './targets.js';
import { loadCaseInputs } from '../engine/inputs.js';
import { packageVersion } from '../loader/package-paths.js';
import { runRedactor } from '../http/connection.js';
import { makeRedactor } from '../http/credentials.js';
import { proxyCredentials } from '../http/proxy.js';
import { boundedText } from '../model/bounded-text.js';
import { RunError } from '../model/errors.js';
import type { RunReport } from '../model/results.js';
import { minJudgedLine } from '../reporters/ledger-view.js';
import { type OutputStream, outputFailureLine } from '../reporters/output-streams.js';
import { redactingStream } from '../reporters/redacting-stream.js';
import { claimReportDir, hasReports, PREVIOUS_FOLDER, setAsideEarlierReports, shownPath } from '../reporters/report-dir.js';
import { ReporterFanOut } from '../reporters/reporter.js';
import { createReporters, STDOUT_JSON, writesFiles } from '../reporters/reporter-registry.js';
import { DEVELOPMENT_API_KEY, startReferenceServer, type RunningServer } from '../server/reference-server.js';
import { bugReportLine, EXIT, EXIT_OF_VERDICT, type StopSignal } from './exit-codes.js';
import { commandHelp, HELP, parseFlags, parseLoadFlags, splitCommand, unknownVariantText } from './args.js';
import { packageFolders, planLoad, planMerge, planRun, useColor, type Env, type PlannedRun } from './plan.js';
import { knownApiKeys } from './secret-files.js';
import { settle } from './settings.js';

/** What a command reads and writes: the process's own streams and environment, or a test's. */
export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  env: Env;
  /** The first Ctrl-C, SIGTERM or SIGHUP (its name is the reason): the run stops starting work (or stops its load) and still reports. */
  signal: AbortSignal;
  /** Requests in flight are aborted (the grace after the first signal ran out, or a second signal came); the reports are still written. */
  abort?: AbortSignal;
}

function stopSignalOf(signal: AbortSignal): StopSignal {
  const reason: unknown = signal.reason;
  return reason === 'SIGTERM' || reason === 'SIGHUP' ? reason : 'SIGINT';
}

const PROGRAM = 'petstore-conformance';

/** Where `serve --big-ids` starts handing out ids: well beyond what a double holds exactly. */
const BIG_IDS_FROM = 2n ** 60n + 1n;

/**
 * The exit code of a finished run: its verdict, unless it was interrupted (a signal while the reports were written
 * included: whoever sent it asked the process to stop) or a report it should have written is missing.
 */
function exitCodeOf(report: RunReport, reporterFailures: number, signal: AbortSignal): number {
  if (report.interrupted === true || signal.aborted) return EXIT.interrupted[stopSignalOf(signal)];
  const code = EXIT_OF_VERDICT[report.verdict];
  // A run that would pass but lost a report cannot be trusted by a pipeline that reads that report.
  return code === EXIT.passed && reporterFailures > 0 ? EXIT.cannotRun : code;
}

/** Where the run's internal errors happened, in one line: `auth.www-authenticate threw 40 times (the check threw: boom)`. */
function internalErrorsText(report: RunReport): string {
  return report.internalErrors
    .map((e) => `${e.where} threw ${e.count === 1 ? 'once' : `${e.count} times`} (${e.message.split('\n')[0] ?? ''})`)
    .join('; ');
}

/**
 * The error of a run that could not start: its cause first, in one line, then one line that says nothing was judged and
 * where the note of it went, and where the reports of the last run that started are kept (`kept`, when there are any).
 */
function notStartedError(cause: RunError, fanOut: ReporterFanOut, kept: string | undefined): RunError {
  const note = fanOut.files.map(shownPath);
  const failed = fanOut.failures.map((failure) => `the ${failure.reporter} reporter failed: ${failure.message}`);
  const where = note.length > 0 ? `; ${note.join(', ')} records why` : '';
  const last = kept === undefined ? '' : `; the reports of the last run that started are in ${shownPath(kept)}`;
  return new RunError(cause.code, cause.message, [
    ...cause.details,
    `nothing was judged (the run did not start)${where}${last}`,
    ...failed,
  ]);
}

/** Runs a plan with its reporters and turns the report into an exit code; `flags`: --quiet and --no-color, which only flags set. */
async function execute(planned: PlannedRun, flags: { quiet?: boolean; 'no-color'?: boolean }, io: CliIo): Promise<number> {
  // Before any request: the reports can be written, and no other run writes into the same folder until this one ends.
  const writes = planned.reporters.some(writesFiles);
  const release = writes ? await claimReportDir(planned.reportDir) : undefined;
  try {
    return await executeInFolder(planned, flags, io, writes);
  } finally {
    await release?.();
  }
}

/** `execute`, once the report folder (where the reporters `writes` files) is this run's. */
async function executeInFolder(
  planned: PlannedRun,
  flags: { quiet?: boolean; 'no-color'?: boolean },
  io: CliIo,
  writes: boolean,
): Promise<number> {
  const quiet = flags.quiet === true;
  const reporterNames = planned.reporters;
  // Redaction is a property of every output: the console streams pass through one redactor after formatting; every file
  // and the JSON on standard output are rendered from the report's values redacted by it, so their structure never is.
  const redact = runRedactor(planned.plan.target.apiKey, planned.plan.target);
  const stdout = redactingStream(io.stdout, redact);
  const stderr = redactingStream(io.stderr, redact);
  // With the JSON on standard output, everything meant for people goes to standard error, so that stdout parses.
  const jsonOnStdout = reporterNames.includes(STDOUT_JSON);
  const human = jsonOnStdout ? stderr : stdout;
  for (const warning of planned.warnings ?? []) stderr.write(`${PROGRAM}: ${warning}\n`);
  if (planned.notice !== undefined && !quiet) human.write(`${planned.notice}\n`);
  const consoleOptions = { stream: human, color: useColor(flags, io.env, jsonOnStdout ? {} : io.stdout), quiet };
  const reporters = await createReporters(reporterNames, planned.reportDir, consoleOptions, redact, io.stdout, planned.outputs);
  const previous = path.join(planned.reportDir, PREVIOUS_FOLDER);
  // Before the first report, started or not: no report at the folder's top level may be an earlier run's.
  const setAside = async (started: boolean): Promise<void> => {
    const moved = await setAsideEarlierReports(planned.reportDir);
    for (const reporter of reporters) reporter.clearLiveLine?.();
    // A run that could not start says where the last reports are in the line after its cause.
    if (started && moved.length > 0 && !quiet) human.write(`earlier reports moved to ${shownPath(previous)}: ${moved.join(', ')}\n`);
  };
  const fanOut = new ReporterFanOut(reporters, writes ? setAside : undefined);
  let report: RunReport;
  try {
    report = await executePlan(planned.plan, fanOut.listener, io.signal, io.abort, startEmbedded);
  } catch (error) {
    if (!(error instanceof RunStoppedError)) {
      if (error instanceof RunError && fanOut.notStarted !== undefined)
        throw notStartedError(error, fanOut, writes && (await hasReports(previous)) ? previous : undefined);
      throw error;
    }
    // The run began and then stopped: its reports say so, and their verdict decides the exit code (a broken contract stays 1).
    report = error.report;
    stderr.write(`${PROGRAM}: ${error.message}\n`);
    for (const detail of error.details) stderr.write(`  ${detail}\n`);
  }
  for (const failure of fanOut.failures) stderr.write(`${PROGRAM}: the ${failure.reporter} reporter failed: ${failure.message}\n`);
  // A bug of ours is reported whatever the verdict, once per check or phase that threw.
  if (report.internalErrors.length > 0) stderr.write(`${bugReportLine(internalErrorsText(report))}\n`);
  const code = exitCodeOf(report, fanOut.failures.length, io.signal);
  // A run that judged less than --min-judged: one line naming the rules it did not judge (the gate, not a contract failure).
  if (report.judgement?.belowMinimum === true)
    stderr.write(`${PROGRAM}: ${code === EXIT.cannotRun ? 'exit 2: ' : ''}${minJudgedLine(report.judgement)}\n`);
  // The console printed the checks' verdict before a report failed: the last line says why the exit code differs from it.
  if (report.verdict === 'passed' && code === EXIT.cannotRun) {
    const failed = fanOut.failures.length === 1 ? 'a report was' : `${fanOut.failures.length} reports were`;
    stderr.write(`${PROGRAM}: exit 2: the checks passed, but ${failed} not written or delivered, so the run cannot be trusted as passed\n`);
  }
  return code;
}

/** Relative paths (the report folder, the configuration) are read against the working directory: a deleted one stops the run here. */
function checkWorkingDirectory(): void {
  try {
    process.cwd();
  } catch (error) {
    throw new RunError(
      'ERR_USAGE',
      `the working directory no longer exists (${(error as NodeJS.ErrnoException).code ?? 'error'}): ` +
        'cd into an existing folder and run again',
    );
  }
}

/** Where a flag given by its old name is said: one line on standard error, the command carrying on. */
function warner(io: CliIo): (line: string) => void {
  return (line) => void io.stderr.write(`${PROGRAM}: ${line}\n`);
}

async function runCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags('run', args, warner(io));
  if (flags.help === true) return printHelp(io, 'run');
  if (flags.version === true) return printVersion(io);
  checkWorkingDirectory();
  return execute(await planRun(flags, io.env), flags, io);
}

async function loadOrMergeCommand(command: 'load' | 'merge', args: string[], io: CliIo): Promise<number> {
  const { positionals, flags } = parseLoadFlags(args, command);
  if (flags.help === true) return printHelp(io, command);
  checkWorkingDirectory();
  const planned = command === 'load' ? await planLoad(positionals, flags, io.env) : await planMerge(positionals, flags, io.env);
  return execute(planned, flags, io);
}

async function catalogueCommand(args: string[], io: CliIo): Promise<number> {
  if (parseFlags('catalogue', args).help === true) return printHelp(io, 'catalogue');
  const [inputs, { renderCatalogue }] = await Promise.all([loadCaseInputs(packageFolders([]), []), import('./catalogue.js')]);
  io.stdout.write(renderCatalogue(inputs));
  return EXIT.passed;
}

async function listCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags('list', args, warner(io));
  if (flags.help === true) return printHelp(io, 'list');
  const { listCases } = await import('./list-command.js');
  return listCases(flags, io.stdout);
}

async function explainCommand(args: string[], io: CliIo): Promise<number> {
  const { positionals, flags } = parseLoadFlags(args, 'explain');
  if (flags.help === true) return printHelp(io, 'explain');
  const { explain } = await import('./list-command.js');
  return explain(positionals, io.stdout);
}

async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags('serve', args);
  if (flags.help === true) return printHelp(io, 'serve');
  const { values } = settle('serve', flags, io.env);
  // The variants (test servers) and the catalogue are loaded by their own commands only: a run does not compile them.
  const { SERVED_VARIANTS, variantServerOptions } = await import('../server/variants.js');
  const variant = values.variant === undefined ? undefined : SERVED_VARIANTS.find((v) => v.name === values.variant);
  if (values.variant !== undefined && variant === undefined)
    throw new RunError(
      'ERR_USAGE',
      unknownVariantText(
        values.variant,
        SERVED_VARIANTS.map((v) => v.name),
      ),
    );
  const { port, host } = values;
  // Trimmed as run and load trim it, so that both ends of a local test hold the same key.
  const fromEnv = io.env['PETSTORE_API_KEY']?.trim();
  const apiKey = fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEVELOPMENT_API_KEY;
  let server: RunningServer;
  try {
    server = await startReferenceServer({
      apiKey,
      host,
      port,
      ...(values['big-ids'] ? { firstId: BIG_IDS_FROM } : {}),
      ...(variant ? variantServerOptions(variant) : {}),
    });
  } catch (error) {
    throw new RunError(
      'ERR_SERVER_START',
      `cannot listen on ${host}:${port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const keySource = apiKey === DEVELOPMENT_API_KEY ? `the development default '${DEVELOPMENT_API_KEY}'` : 'PETSTORE_API_KEY';
  io.stdout.write(`reference pet store listening on ${server.baseUrl} (API key: ${keySource}); Ctrl-C stops it\n`);
  // Ctrl-C, SIGTERM or SIGHUP (the process entry turns each into this signal) stops the server.
  await new Promise<void>((resolve) => io.signal.addEventListener('abort', () => resolve(), { once: true }));
  await server.close();
  return EXIT.passed;
}

/** The whole help, or one command's when it is asked for with `COMMAND --help`. */
function printHelp(io: CliIo, command?: Parameters<typeof commandHelp>[0]): number {
  io.stdout.write(command === undefined ? HELP : commandHelp(command));
  return EXIT.passed;
}

function printVersion(io: CliIo): number {
  io.stdout.write(`${packageVersion()}\n`);
  return EXIT.passed;
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const { command, args } = splitCommand(argv);
  switch (command) {
    case 'help':
      return printHelp(io);
    case 'version':
      return printVersion(io);
    case 'serve':
      return serveCommand(args, io);
    case 'catalogue':
      return catalogueCommand(args, io);
    case 'list':
      return listCommand(args, io);
    case 'explain':
      return explainCommand(args, io);
    case 'run':
      return runCommand(args, io);
    case 'load':
    case 'merge':
      return loadOrMergeCommand(command, args, io);
  }
}

/** Runs one command to its exit code; whatever stops it is one line on stderr (exit 2), never a stack trace unless PETSTORE_DEBUG asks. */
export async function cli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    // The key the command read (from a key file too) and PETSTORE_API_KEY: whatever stopped the run is redacted with both.
    const [apiKey = '', ...otherKeys] = knownApiKeys(io.env);
    const redact = makeRedactor(apiKey, [...otherKeys, ...proxyCredentials(io.env)]);
    if (error instanceof RunError) {
      io.stderr.write(redact(`${PROGRAM}: ${error.message}\n`));
      for (const detail of error.details) io.stderr.write(redact(`  ${detail}\n`));
    } else {
      const message = error instanceof Error ? error.message : String(error);
      // Where it was thrown: the first frame of this project's own code, so that the report says which phase.
      const where = error instanceof Error ? /\/(?:src|dist)\/([\w/.-]+\.[jt]s:\d+)/.exec(error.stack ?? '')?.[1] : undefined;
      // One line of a few KiB at most, whatever the error carried (a message may quote megabytes).
      const first = boundedText(message.split('\n')[0] ?? '');
      io.stderr.write(redact(`${bugReportLine(`${first}${where === undefined ? '' : ` (at ${where})`}`)}\n`));
      if (io.env['PETSTORE_DEBUG']) io.stderr.write(redact(`${error instanceof Error ? (error.stack ?? '') : ''}\n`));
      if (!io.signal.aborted) return EXIT.internalError;
    }
    // A run a signal stopped (even one that then failed to finish a request) exits as interrupted.
    return io.signal.aborted ? EXIT.interrupted[stopSignalOf(io.signal)] : EXIT.cannotRun;
  } finally {
    const stopped = outputFailureLine('standard output', io.stdout);
    if (stopped !== undefined) io.stderr.write(`${PROGRAM}: ${stopped}\n`);
  }
}
