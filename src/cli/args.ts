/** Command-line parsing: every flag checked, every mistake one clear line (exit 2). */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { RunError } from '../model/errors.js';

/** The commands of the CLI. */
export type Command = 'run' | 'serve' | 'catalogue' | 'help' | 'version' | 'load' | 'merge';

const COMMANDS: readonly Command[] = ['run', 'serve', 'catalogue', 'help', 'version', 'load', 'merge'];

/** Flags of load runs, shared by `run --load`, `load` and `merge`. */
const LOAD_OPTIONS = {
  baseline: { type: 'string' },
  'baseline-tolerance': { type: 'string' },
  'allow-production-load': { type: 'boolean' },
  workers: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

const RUN_OPTIONS = {
  config: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-file': { type: 'string' },
  suite: { type: 'string', multiple: true },
  check: { type: 'string', multiple: true },
  'skip-check': { type: 'string', multiple: true },
  phase: { type: 'string', multiple: true },
  'report-dir': { type: 'string' },
  reporter: { type: 'string', multiple: true },
  scenarios: { type: 'string', multiple: true },
  now: { type: 'string' },
  'read-only': { type: 'boolean' },
  strict: { type: 'boolean' },
  'category-id': { type: 'string' },
  concurrency: { type: 'string' },
  'consistency-window': { type: 'string' },
  timeout: { type: 'string' },
  'rate-limit': { type: 'string' },
  'max-wait': { type: 'string' },
  'wait-budget': { type: 'string' },
  'max-response-bytes': { type: 'string' },
  seed: { type: 'string' },
  'max-examples': { type: 'string' },
  'max-writes': { type: 'string' },
  'ca-file': { type: 'string' },
  'client-cert': { type: 'string' },
  'client-key': { type: 'string' },
  header: { type: 'string', multiple: true, short: 'H' },
  quiet: { type: 'boolean', short: 'q' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  load: { type: 'string' },
  ...LOAD_OPTIONS,
} as const satisfies ParseArgsConfig['options'];

/** `load PROFILE` takes the target flags of `run` and the load flags. */
const LOAD_COMMAND_OPTIONS = {
  config: RUN_OPTIONS.config,
  'base-url': RUN_OPTIONS['base-url'],
  'api-key-file': RUN_OPTIONS['api-key-file'],
  'ca-file': RUN_OPTIONS['ca-file'],
  'client-cert': RUN_OPTIONS['client-cert'],
  'client-key': RUN_OPTIONS['client-key'],
  header: RUN_OPTIONS.header,
  'report-dir': RUN_OPTIONS['report-dir'],
  reporter: RUN_OPTIONS.reporter,
  quiet: RUN_OPTIONS.quiet,
  'no-color': RUN_OPTIONS['no-color'],
  help: RUN_OPTIONS.help,
  ...LOAD_OPTIONS,
} as const satisfies ParseArgsConfig['options'];

const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  variant: { type: 'string' },
  'big-ids': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/** The flags a command accepts, so a configuration file fills only those. */
export function optionNames(command: 'run' | 'load'): ReadonlySet<string> {
  return new Set(Object.keys(command === 'run' ? RUN_OPTIONS : LOAD_COMMAND_OPTIONS));
}

/** Parsed `run` flags. */
export type RunFlags = ReturnType<typeof parseRunFlags>;

function optionName(token: string): string {
  return token.split('=')[0] ?? token;
}

function parseWith<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, command: string) {
  for (const arg of args) {
    // A key on the command line leaks into shell history and process lists; never echo it.
    if (/^--api-key(=|$)/.test(arg)) {
      throw new RunError(
        'ERR_USAGE',
        '--api-key is not accepted (a key on the command line leaks); set PETSTORE_API_KEY or use --api-key-file FILE',
      );
    }
  }
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const unknown = /'([^']+)'/.exec((error as Error).message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown)
      throw new RunError('ERR_USAGE', `unknown option '${optionName(unknown)}' for '${command}' (see --help)`);
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      throw new RunError('ERR_USAGE', `'${command}' takes no positional arguments (see --help)`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const option = /--[a-z-]+/.exec((error as Error).message)?.[0] ?? 'an option';
      throw new RunError('ERR_USAGE', `${option} needs a value (see --help)`);
    }
    throw new RunError('ERR_USAGE', `${(error as Error).message.split('\n')[0] ?? 'bad arguments'} (see --help)`);
  }
}

/** Parses the flags of `run`. */
export function parseRunFlags(args: string[]) {
  return parseWith(args, RUN_OPTIONS, 'run');
}

/** Parses the flags of `serve`. */
export function parseServeFlags(args: string[]) {
  return parseWith(args, SERVE_OPTIONS, 'serve');
}

/** Parsed `load` and `merge` flags. */
export type LoadFlags = ReturnType<typeof parseLoadFlags>['flags'];

/** Parses `load PROFILE [options]` and `merge FILE... [options]`: the leading arguments, then the flags. */
export function parseLoadFlags(args: string[], command: 'load' | 'merge') {
  const firstFlag = args.findIndex((a) => a.startsWith('-'));
  const positionals = firstFlag === -1 ? args : args.slice(0, firstFlag);
  const flags = parseWith(firstFlag === -1 ? [] : args.slice(firstFlag), LOAD_COMMAND_OPTIONS, command);
  return { positionals, flags };
}

/** A share such as 0.1 for --baseline-tolerance, or a usage error. */
export function shareFlag(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) > 10)
    throw new RunError('ERR_USAGE', `--${name} must be a share such as 0.1 (10 %), got '${value}'`);
  return Number(value);
}

/** The whole answer to `--version` or `--help` (and `version`, `help`, `-V`, `-h`) alone, which needs nothing else loaded; undefined for anything else. */
export function quickAnswer(argv: readonly string[], version: () => string): string | undefined {
  if (argv.length !== 1) return undefined;
  const [only] = argv;
  if (only === '--version' || only === '-V' || only === 'version') return `${version()}\n`;
  if (only === '--help' || only === '-h' || only === 'help') return HELP;
  return undefined;
}

/** Splits argv into the command and its arguments; `run` is the default. */
export function splitCommand(argv: string[]): { command: Command; args: string[] } {
  const [first, ...rest] = argv;
  if (first === undefined || first.startsWith('-')) {
    if (first === '--help' || first === '-h') return { command: 'help', args: rest };
    if (first === '--version' || first === '-V') return { command: 'version', args: rest };
    return { command: 'run', args: argv };
  }
  if ((COMMANDS as readonly string[]).includes(first)) return { command: first as Command, args: rest };
  throw new RunError('ERR_USAGE', `unknown command '${first}'; the commands are: ${COMMANDS.join(', ')}`);
}

/** A whole number within bounds, or a usage error naming the flag. */
export function intFlag(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new RunError('ERR_USAGE', `--${name} must be a whole number from ${min} to ${max}, got '${value}'`);
  }
  return Number(value);
}

/** A calendar date or timestamp for --now, or a usage error. */
export function dateFlag(value: string | undefined): Date {
  if (value === undefined) return new Date();
  const day = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.exec(value);
  const date = new Date(day?.[2] === undefined ? `${value}T12:00:00Z` : value);
  // A day that does not exist (2030-02-31) would roll over into the next month: refuse it rather than test another day.
  if (day === null || Number.isNaN(date.getTime()) || !isRealDay(day[1] as string)) {
    throw new RunError('ERR_USAGE', `--now must be a date such as 2030-12-05 (or an ISO timestamp), got '${value}'`);
  }
  return date;
}

function isRealDay(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The usage text. */
/** The usage lines of every command. */
const USAGE = `petstore-conformance: conformance and load tests for the Pet Store Service Interface

Usage:
  petstore-conformance [run] [options]     test a pet store (default command)
  petstore-conformance serve [options]     run the reference pet store
  petstore-conformance load PROFILE [options]    load listPets with a profile (a name in
                            scenarios/load: smoke, nightly, stress; or a file)
  petstore-conformance merge REPORT... [options] merge the load reports of several machines
                            and judge them by the same thresholds
  petstore-conformance catalogue           print the catalogue of checks and cases (Markdown)
  petstore-conformance --help | --version
  petstore-conformance COMMAND --help      the options of one command

`;

/** The options of `run`. */
const RUN_HELP = `Run options:
  --config FILE             defaults from a YAML file (or PETSTORE_CONFIG); flags and environment
                            variables override it (schemas/config.schema.json)
  --base-url URL            the service under test, ending in /v1 (or PETSTORE_BASE_URL);
                            without one, an embedded reference server on 127.0.0.1 is tested
  --api-key-file FILE       read the API key from FILE (or set PETSTORE_API_KEY)
  --suite NAME              run only this suite (repeatable): contract, auth, limits, filters,
                            lifecycle, errors, deprecation, versioning, coverage, fuzz, stateful
  --check GLOB              run only the cases whose id matches (repeatable; * and ?), e.g. 'auth.*'
  --skip-check GLOB         judge no check or case whose id matches (repeatable), as the config's
                            disable list does; the report names each with the flag as its reason
  --phase NAME              run only these phases (repeatable): examples (the declared and
                            contract cases), coverage, fuzz, stateful
  --report-dir DIR          where reports go (default: reports)
  --reporter LIST           console, json, junit, html, markdown, har, comma-separated or repeated
                            (default: all but har; files: report.json, junit.xml, report.html,
                            summary.md, report.har: the evidence as an HTTP Archive for HTTP tools);
                            json:- prints report.json to standard output, the console to standard error
  --scenarios DIR           also run the scenario files in DIR (repeatable)
  --now DATE                the suite's clock: a day (2030-12-06) or an ISO timestamp (default: now)
  --read-only               send nothing that writes (for production)
  --strict                  warnings fail the run
  --category-id N           a category that exists on the server (or PETSTORE_CATEGORY_ID; default: 1)
  --concurrency N           cases run at once (default: 4)
  --consistency-window MS   how long a read retries to see a write (default: 2000)
  --timeout MS              deadline of one whole request (default: 15000)
  --rate-limit N            send at most N requests per second (a staging's published limit)
  --max-wait S              the longest wait a 429/503 Retry-After may ask for (default: 60);
                            a longer one stops the run (exit 2: rate limits are not a verdict)
  --wait-budget S           all the waiting a run may do for rate limits (default: 300)
  --max-response-bytes N    response size cap (default: 4194304)
  --seed N                  the fuzzing phase's seed (default: random, printed; the same seed
                            replays the same requests)
  --max-examples N          examples each fuzzing property draws (default: 30); the stateful
                            phase draws a third as many sequences
  --max-writes N            the most pets a run creates (default: 500); cases that write
                            once they exist are skipped
  --ca-file FILE            extra trusted CA certificates (PEM)
  --client-cert FILE        a client certificate for mutual TLS (PEM), with --client-key FILE
  --client-key FILE         its private key (PEM; an encrypted one reads its passphrase from
                            PETSTORE_CLIENT_KEY_PASSPHRASE)
  -H, --header NAME:VALUE   send this header on every request (repeatable), e.g. a tenant or
                            tracing header; a value that looks secret is never shown. Not
                            Authorization, Host, Content-Type or the framing headers.
                            HTTPS_PROXY, HTTP_PROXY and NO_PROXY are honoured (not for the
                            embedded server)
  -q, --quiet               print only failures and the verdict
  --no-color                no colours (a non-empty NO_COLOR too; FORCE_COLOR forces them)
  --load PROFILE            also run a load profile and add it to the report

`;

/** The load options, and which other flags `load` and `merge` take. */
const LOAD_HELP = `Load options (run --load, load, merge):
  --baseline FILE           compare with an earlier report.json (p50, p99, rps, error rate)
  --baseline-tolerance X    allowed regression as a share (default: the profile's, else 0.1)
  --allow-production-load   load a base URL the profile marks as production
  --workers N               worker threads generating the load (1..64; default: the profile's,
                            else half the cores, at most 8 and at most one per connection)
  load and merge also take --reporter (default: console,json); load takes --base-url,
  --api-key-file, --ca-file, --client-cert, --client-key, --header, --report-dir, -q, --no-color.

`;

/** The options of `serve`. */
const SERVE_HELP = `Serve options:
  --port N                  port (default: 8080; 0 picks a free one)
  --host HOST               address (default: 127.0.0.1)
  --big-ids                 hand out ids above 2^53 (to test int64 exactness)
  --variant NAME            serve a variant of the catalogue (an unknown name lists them)
  The API key is PETSTORE_API_KEY, or the development default 'petstore-dev-key'.

`;

/** The exit codes, for every command that judges. */
const EXIT_HELP = `Exit codes: 0 passed (warnings allowed), 1 a check failed, 2 could not run or incomplete,
130 interrupted by Ctrl-C, 143 by SIGTERM, 129 by SIGHUP (the reports are written either way).
`;

/** The whole help: every command and option. */
export const HELP = `${USAGE}${RUN_HELP}${LOAD_HELP}${SERVE_HELP}${EXIT_HELP}`;

/** The help of one command: its usage line and the options it takes. */
export function commandHelp(command: 'run' | 'load' | 'merge' | 'serve' | 'catalogue'): string {
  const head = (usage: string, what: string): string => `petstore-conformance ${command}: ${what}\n\nUsage:\n  ${usage}\n\n`;
  switch (command) {
    case 'run':
      return `${head('petstore-conformance [run] [options]', 'test a pet store (the default command)')}${RUN_HELP}${LOAD_HELP}${EXIT_HELP}`;
    case 'load':
      return `${head('petstore-conformance load PROFILE [options]', 'load listPets with a profile (a name in scenarios/load: smoke, nightly, stress; or a file)')}${LOAD_HELP}${EXIT_HELP}`;
    case 'merge':
      return `${head('petstore-conformance merge REPORT... [options]', 'merge the load reports of several machines and judge them by the same thresholds')}${LOAD_HELP}${EXIT_HELP}`;
    case 'serve':
      return `${head('petstore-conformance serve [options]', 'run the reference pet store')}${SERVE_HELP}`;
    case 'catalogue':
      return `${head('petstore-conformance catalogue', 'print the catalogue of checks and cases (Markdown), as docs/checks.md holds it')}It takes no options.\n`;
  }
}
