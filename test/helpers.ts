/** Shared test helpers: run the real CLI, start reference servers, make temp folders. */
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AddressInfo, Server, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { PassThrough } from 'node:stream';
import { cli as command } from '../src/cli/command.js';
import { stopOnSignals, type StopSignal } from '../src/cli/exit-codes.js';
import type { Clock } from '../src/model/clock.js';
import { createAjv } from '../src/loader/ajv.js';
import { formatAjvErrors } from '../src/loader/ajv-errors.js';
import { disabledIdProblems, readConfig, type SuiteConfig } from '../src/loader/config.js';
import { problemsError } from '../src/loader/yaml-file.js';

/** The project root. */
export const root = fileURLToPath(new URL('../', import.meta.url));

/** CommonJS packages' files (har-schema, ajv's draft-06 meta-schema) for the tests. */
const require = createRequire(import.meta.url);

/** The built CLI entry point. */
export const cli = path.join(root, 'dist/src/cli/main.js');

/** What a CLI run produced. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let reportValidator: ValidateFunction | undefined;

/** The problems of a report.json value against schemas/report.schema.json; empty when it is valid. */
export async function reportSchemaProblems(report: unknown): Promise<string[]> {
  reportValidator ??= createAjv().compile(JSON.parse(await readFile(path.join(root, 'schemas/report.schema.json'), 'utf8')) as object);
  const validate = reportValidator;
  return validate(report) ? [] : formatAjvErrors(validate.errors);
}

/** har-schema's JSON Schemas of HAR 1.2 (draft-06), one per object, by name: log, entry, request, response, content, ... */
export function harSchemas(): Record<string, { properties?: Record<string, unknown> }> {
  return require('har-schema') as Record<string, { properties?: Record<string, unknown> }>;
}

let harValidator: ValidateFunction | undefined;

/** The problems of a HAR document against the HAR 1.2 schemas of the har-schema package; empty when it is valid. */
export function harSchemaProblems(har: unknown): string[] {
  harValidator ??= compileHarSchema();
  return harValidator(har) ? [] : formatAjvErrors(harValidator.errors);
}

/** har-schema's schemas are draft-06 with three keywords of their own (optional, min, unique) and an array schema that uses object keywords: strict otherwise. */
function compileHarSchema(): ValidateFunction {
  // ajv-formats ships CommonJS; its default export arrives wrapped under NodeNext.
  const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
  const ajv = new Ajv({ strict: true, strictTypes: false, allErrors: true });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  ajv.addVocabulary(['optional', 'min', 'unique']);
  addFormats(ajv);
  for (const schema of Object.values(harSchemas())) ajv.addSchema(schema);
  const validate = ajv.getSchema('har.json#');
  if (validate === undefined) throw new Error('har-schema has no har.json#');
  return validate;
}

/** When a run wrote report.json to its --report-dir, the report must match its schema: every e2e test checks this. */
async function checkWrittenReport(args: readonly string[], since: number): Promise<void> {
  const at = args.indexOf('--report-dir');
  const dir = at >= 0 ? args[at + 1] : undefined;
  if (dir === undefined) return;
  const file = path.join(dir, 'report.json');
  const written = await stat(file).then(
    (s) => s.mtimeMs >= since,
    () => false,
  );
  if (!written) return;
  const problems = await reportSchemaProblems(JSON.parse(await readFile(file, 'utf8')));
  if (problems.length > 0) throw new Error(`${file} does not match schemas/report.schema.json:\n${problems.join('\n')}`);
}

/** The signals the process entry hands the command: the first stop, and the abort of what is in flight. */
export interface StopSignals {
  signal: AbortSignal;
  abort?: AbortSignal;
}

/**
 * Runs the CLI's command in this process (no start-up cost) with a clean environment (plus `env`), as the
 * real CLI would: same streams, exit code and files; a report.json it writes is validated against its schema.
 */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
  stop: StopSignals = { signal: new AbortController().signal },
): Promise<CliResult> {
  const since = Date.now() - 1_000;
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void): PassThrough => {
    const stream = new PassThrough();
    stream.on('data', (d: Buffer) => append(d.toString()));
    return stream;
  };
  const code = await command(args, {
    stdout: sink((x) => (stdout += x)),
    stderr: sink((x) => (stderr += x)),
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...env },
    ...stop,
  });
  await new Promise((resolve) => setImmediate(resolve));
  await checkWrittenReport(args, since);
  return { code, stdout, stderr };
}

/** Runs the built CLI as its own process, bounded in time: for what only a real process shows (start-up, exit, signals). */
export async function runRealCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliResult> {
  const since = Date.now() - 1_000;
  const result = await spawnNode([cli, ...args], env, timeoutMs);
  await checkWrittenReport(args, since);
  return result;
}

/**
 * `command` and its arguments as a user starts them. tap gives every process a test starts NODE_OPTIONS of its own (its
 * process-info loader, for the coverage this project does not collect), under which a Node process took twice as long to
 * run a short suite (0.64 s against 0.33 s); env(1) drops them, whatever environment the process is given.
 */
export function asUserStarts(command: string, args: readonly string[]): [string, string[]] {
  return ['env', ['-u', 'NODE_OPTIONS', command, ...args]];
}

/** Runs Node with `args` (Node's own flags, then a script and its arguments) in the project root, bounded in time by a kill. */
export function spawnNode(args: string[], env: Record<string, string>, timeoutMs: number): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const base: Record<string, string> = { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' };
    const child = spawn(...asUserStarts(process.execPath, args), {
      env: { ...base, ...env },
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A fresh temporary folder. */
export function tempDir(prefix = 'psc-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

/** What a signalled CLI did: its exit code, output, and how long it took to exit after the first signal. */
export interface SignalledRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from the first signal to the exit; undefined when no signal was sent. */
  exitAfterMs: number | undefined;
}

/**
 * Starts the CLI and sends it `signals` once `ready()` holds (polled), one after another `gapMs` apart, so that they land
 * mid-run however slow the machine; bounded by a kill.
 */
export function signalCli(
  args: string[],
  env: Record<string, string>,
  ready: () => boolean,
  signals: readonly NodeJS.Signals[] = ['SIGINT'],
  gapMs = 300,
  timeoutMs = 30_000,
): Promise<SignalledRun> {
  // env(1) execs Node: the signals reach the CLI itself.
  const child = spawn(...asUserStarts(process.execPath, [cli, ...args]), {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let firstSignalAt: number | undefined;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const timers: NodeJS.Timeout[] = [];
  const poll = setInterval(() => {
    if (!ready()) return;
    clearInterval(poll);
    firstSignalAt = performance.now();
    for (const [i, signal] of signals.entries()) timers.push(setTimeout(() => child.kill(signal), i * gapMs));
  }, 10);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(killer);
      clearInterval(poll);
      for (const timer of timers) clearTimeout(timer);
      resolve({ code, stdout, stderr, exitAfterMs: firstSignalAt === undefined ? undefined : performance.now() - firstSignalAt });
    });
  });
}

/** What an in-process run stopped by signals did, and what the process entry said as each signal came. */
export interface StoppedRun extends SignalledRun {
  said: string;
}

/**
 * Runs the CLI's command in this process and stops it as the process entry does (stopOnSignals): `signals` are handed to it
 * once `ready()` holds (polled), `gapMs` apart, and the requests in flight get `graceMs` (1 s in the real process). What a
 * stopped run does is tested here, without a process to start; the entry's own wiring, once, on the real process. A run
 * still going `timeoutMs` after it began fails the test, as does one the entry would have had to end (its last resort).
 */
export async function stopCli(
  args: string[],
  env: Record<string, string>,
  ready: () => boolean,
  signals: readonly StopSignal[] = ['SIGINT'],
  options: { graceMs?: number; gapMs?: number; timeoutMs?: number } = {},
): Promise<StoppedRun> {
  const { graceMs = 50, gapMs = 0, timeoutMs = 30_000 } = options;
  const timers = new Set<NodeJS.Timeout>();
  const later = (run: () => void, ms: number): void => void timers.add(setTimeout(run, ms));
  let said = '';
  let firstSignalAt: number | undefined;
  let fail: (why: string) => void = () => undefined;
  const failed = new Promise<never>(
    (_resolve, reject) => (fail = (why) => reject(new Error(`${why} (the entry said: ${JSON.stringify(said)})`))),
  );
  later(() => fail(`the run did not end within ${timeoutMs} ms`), timeoutMs);
  const stopping = stopOnSignals({
    serving: args[0] === 'serve',
    write: (line) => (said += line),
    exit: (code) => fail(`the entry's last resort would have ended the process with ${code}: the run did not end`),
    graceMs,
    schedule: later,
  });
  const poll = setInterval(() => {
    if (!ready()) return;
    clearInterval(poll);
    firstSignalAt = performance.now();
    for (const [i, signal] of signals.entries()) {
      if (i === 0) stopping.onSignal(signal);
      else later(() => stopping.onSignal(signal), i * gapMs);
    }
  }, 5);
  timers.add(poll);
  try {
    const result = await Promise.race([runCli(args, env, { signal: stopping.interruption, abort: stopping.abortion }), failed]);
    return { ...result, said, exitAfterMs: firstSignalAt === undefined ? undefined : performance.now() - firstSignalAt };
  } finally {
    for (const timer of timers) clearTimeout(timer);
  }
}

/** Listens on 127.0.0.1 (a free port) until the test file ends, then drops every connection; returns the base URL (…/v1). */
export async function listenLocally(server: Server, scheme = 'http'): Promise<string> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** A virtual clock and the waits made on it. */
export interface VirtualClock extends Clock {
  /** Every wait asked of it, in order (ms). */
  readonly slept: number[];
}

/**
 * A clock on which a wait takes no time: sleep moves it forward by what was asked and resolves at once (rejecting, as the real
 * one does, when the signal has aborted). Waits that overlap in real time add up on it, so it suits a test that waits one at a time.
 */
export function virtualClock(start = 0): VirtualClock {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: (ms, signal) => {
      if (signal?.aborted === true)
        return Promise.reject(signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted', 'AbortError'));
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

/** A configuration file read and validated as the plan reads it, its problems refused at once (the plan adds its own first). */
export async function loadConfig(file: string, validate: ValidateFunction, displayRoot: string): Promise<SuiteConfig> {
  const { config, problems } = await readConfig(file, validate, displayRoot);
  if (problems.length > 0) throw problemsError('ERR_CONFIG', 'the configuration file', problems);
  return config;
}

/** Refuses the configuration's `disable` entries that name no check or case, as the plan does. */
export function checkDisabledIds(config: SuiteConfig, knownIds: ReadonlySet<string>): void {
  const problems = disabledIdProblems(config, knownIds);
  if (problems.length > 0) throw problemsError('ERR_CONFIG', 'the configuration file', problems);
}

/**
 * docs/scenarios.md's example of a team's own cases ("Your own cases and suites"), written as the page says into `dir`: its suite
 * file in team-checks/suites/team.yaml and its scenario file in team-checks/pets.yaml. Returns the team-checks folder.
 */
export async function writeReadmeTeamExample(dir: string): Promise<string> {
  const page = await readFile(path.join(root, 'docs/scenarios.md'), 'utf8');
  const section = page.split('### Your own cases and suites\n')[1]?.split('\n### ')[0] ?? '';
  const [suite, scenarios] = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  if (suite === undefined || scenarios === undefined)
    throw new Error('docs/scenarios.md has no two YAML blocks under "Your own cases and suites"');
  const folder = path.join(dir, 'team-checks');
  await mkdir(path.join(folder, 'suites'), { recursive: true });
  await writeFile(path.join(folder, 'suites', 'team.yaml'), suite);
  await writeFile(path.join(folder, 'pets.yaml'), scenarios);
  return folder;
}

/** The checkout's own reports/ folder as it stands: each entry with its time of change (a test never writes there). */
export async function checkoutReports(): Promise<string[]> {
  const dir = path.join(root, 'reports');
  const names = await readdir(dir).catch(() => []);
  return Promise.all(names.sort().map(async (name) => `${name} ${(await stat(path.join(dir, name))).mtimeMs}`));
}

/** Ends a tier with a test that its files left the checkout's reports/ as they found it (a run without --report-dir writes there). */
export function guardCheckoutReports(before: readonly string[]): void {
  t.test("the tests leave the checkout's reports/ folder as they found it: each run is given a folder of its own", async (t) => {
    t.same(await checkoutReports(), before);
  });
}

/** A stream that collects what is written to it, as text. */
export function textSink(): PassThrough & { text: () => string } {
  const stream = new PassThrough() as PassThrough & { text: () => string };
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  stream.text = () => text;
  return stream;
}
