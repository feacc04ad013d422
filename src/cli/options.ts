/**
 * The one table of options: each declared once with its flag, environment variable, configuration key (or why it has
 * none), value kind and bounds, default, help line and how the report records it. The parseArgs tables, the help, the
 * configuration schema's properties and meta.options are read off it. Loaded by `--help`, so it imports nothing heavy.
 */
import path from 'node:path';
// A module of its own, that loads nothing: --help and --version read this table without loading the engine.
import { GENERATED_SUITES } from '../model/generated-suites.js';
import { extraHeader, parseHeaderFlag } from '../http/extra-headers.js';
import { DEFAULT_PACING } from '../http/pacer.js';
import { MAX_KEY_CHARACTERS, MIN_KEY_CHARACTERS } from '../model/api-key.js';
import { DEFAULT_MAX_HEADER_BYTES, REQUEST_BOUNDS, type ExtraHeader } from '../model/connection.js';
import { RunError } from '../model/errors.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import { MAX_WORKERS } from '../model/load.js';
import { safeUrl } from '../model/safe-url.js';
import { baseUrlProblem } from './base-url.js';
import { OUTPUT_KINDS, REPORTER_NAMES, type OutputTarget } from '../reporters/reporter-names.js';

/** The commands that take options. */
export type OptionCommand = 'run' | 'load' | 'merge' | 'serve' | 'catalogue';

/** A value meta.options records. */
export type RecordedValue = string | number | boolean | string[];

/** A configuration value's place, for its kind: the file's folder (its paths are relative to it) and where a value stands. */
export interface FileContext {
  dir: string;
  /** `file:line:col: key`, of the option's value or of a value (or, with `key`, a key) under it. */
  at(under?: ReadonlyArray<string | number>, key?: boolean): string;
}

/** What an option's value is: how a flag or a variable is read, how a configuration value becomes it, its schema and its record. */
export interface ValueKind<T> {
  /** The type the table states (tests and the README speak of it). */
  readonly type: 'string' | 'path' | 'paths' | 'url' | 'integer' | 'int64' | 'share' | 'date' | 'boolean' | 'list' | 'headers' | 'outputs';
  /** A flag that takes no value. */
  readonly boolean?: true;
  /** The flag may be given again: every occurrence counts. */
  readonly repeatable?: true;
  /** The smallest and largest value, for whole numbers. */
  readonly bounds?: { readonly min: number; readonly max: number };
  /** The JSON Schema of the configuration key. */
  readonly schema: JsonObject;
  /** A flag's occurrences (one unless repeatable), or an environment variable's text; a bad one is one line that names `label`. */
  parse(texts: readonly string[], label: string): T;
  /** A configuration value (already valid against the schema) as the option's value. */
  fromFile(value: JsonValue, file: FileContext): T;
  /** What meta.options records of a value. */
  record(value: T): RecordedValue;
  /** How a later layer's value joins an earlier one's; without it, the later replaces it. */
  merge?(earlier: T, later: T): T;
}

/** How the report records an option: under a key of meta.options, elsewhere in the report, or not (and why). */
export type Recorded = { readonly option: string } | { readonly in: string } | { readonly not: string };

/** The help sections, in the order the whole help shows them. */
export const SECTIONS = {
  service: {
    title: 'Reaching the service (run, load):',
    footer: 'HTTPS_PROXY, HTTP_PROXY and NO_PROXY are honoured (not for the embedded server).',
  },
  select: { title: 'Choosing what runs (run):' },
  behaviour: { title: 'What the run may assume and do (run):' },
  bounds: { title: 'Pace and bounds (run):' },
  generated: { title: 'Generated requests (run):' },
  load: { title: 'Load (run --load, load, merge):' },
  output: { title: 'Output (run, load, merge):' },
  serve: {
    title: 'The reference server (serve):',
    footer: "The API key is PETSTORE_API_KEY, or the development default 'petstore-dev-key'.",
  },
  general: { title: 'General:' },
} as const satisfies Record<string, { title: string; footer?: string }>;

/** One option as the table declares it. */
export type OptionSpec<T> = {
  readonly kind: ValueKind<T>;
  /** The one-letter flag (-H). */
  readonly short?: string;
  /** What the help shows after the flag (`--timeout MS`); none for a flag without a value. */
  readonly arg?: string;
  /** The commands that take it. */
  readonly commands: readonly OptionCommand[];
  readonly section: keyof typeof SECTIONS;
  /** The environment variable that sets it (an empty one sets nothing). */
  readonly env?: string;
  readonly default?: T;
  /** How the help states the default, when it is not the value itself (a random seed, the profile's). */
  readonly shownDefault?: string;
  /** The help states the bounds too. */
  readonly showBounds?: true;
  /** What it does: the help line, before `(or ENV; default: X)`. */
  readonly help: string;
  /** What the help says after that parenthesis (starting with its own punctuation). */
  readonly more?: string;
  /** The configuration key's description, where the help line does not read as one (it speaks of the flag). */
  readonly fileHelp?: string;
  readonly recorded: Recorded;
  /** What meta.options records, when not the kind's record of the value. */
  record?(value: T): RecordedValue;
} & ({ readonly configKey: string; readonly noConfig?: never } | { readonly noConfig: string; readonly configKey?: never });

/** An option whose value always exists: the table gives its default. */
export type DefaultedSpec<T> = OptionSpec<T> & { readonly default: T };

/** Declares an option; one with a default is typed so that its value is never undefined. */
function option<T>(spec: DefaultedSpec<T>): DefaultedSpec<T>;
function option<T>(spec: OptionSpec<T>): OptionSpec<T>;
function option<T>(spec: OptionSpec<T>): OptionSpec<T> {
  return spec;
}

function usage(message: string): RunError {
  return new RunError('ERR_USAGE', message);
}

/** The last occurrence of a flag given once (parseArgs keeps the last of repeated single-value flags too). */
function last(texts: readonly string[]): string {
  return texts[texts.length - 1] ?? '';
}

/** Free text. */
function text(schema: JsonObject = { type: 'string', minLength: 1 }): ValueKind<string> {
  return { type: 'string', schema, parse: (texts) => last(texts), fromFile: (value) => String(value), record: (value) => value };
}

/** A file or folder: a flag's is taken as given (relative to the working folder), a configuration file's relative to that file. */
function filePath(): ValueKind<string> {
  return {
    type: 'path',
    schema: { type: 'string', minLength: 1 },
    parse: (texts) => last(texts),
    fromFile: (value, file) => path.resolve(file.dir, String(value)),
    record: (value) => value,
  };
}

/** Files or folders, repeatable; relative to the configuration file as `filePath`. */
function filePaths(): ValueKind<string[]> {
  return {
    type: 'paths',
    repeatable: true,
    schema: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
    parse: (texts) => [...texts],
    fromFile: (value, file) => (Array.isArray(value) ? value : [value]).map((item) => path.resolve(file.dir, String(item))),
    record: (value) => [...value],
  };
}

/** Names or globs, repeatable; each item of the configuration's list matches `items`. `commas`: a flag's value may list several (`--suite auth,limits`). */
function list(items: JsonObject, commas = false): ValueKind<string[]> {
  return {
    type: 'list',
    repeatable: true,
    schema: { type: 'array', minItems: 1, items },
    parse: (texts) =>
      commas
        ? texts
            .flatMap((text) => text.split(','))
            .map((name) => name.trim())
            .filter((name) => name !== '')
        : [...texts],
    fromFile: (value) => (Array.isArray(value) ? value : [value]).map(String),
    record: (value) => [...value],
  };
}

/** A flag without a value: given means true. */
function flag(): ValueKind<boolean> {
  return {
    type: 'boolean',
    boolean: true,
    schema: { type: 'boolean' },
    parse: () => true,
    fromFile: (value) => value === true,
    record: (value) => value,
  };
}

/** A whole number within bounds; `suffix` may follow it in a flag (`--rate-limit 10/s`). */
function integer(min: number, max: number, suffix?: string): ValueKind<number> {
  const check = (value: string, label: string): number => {
    const digits = suffix !== undefined && value.endsWith(suffix) ? value.slice(0, -suffix.length) : value;
    if (!/^\d+$/.test(digits) || Number(digits) < min || Number(digits) > max)
      throw usage(`${label} must be a whole number from ${min} to ${max}, got '${value}'`);
    return Number(digits);
  };
  return {
    type: 'integer',
    bounds: { min, max },
    schema: { type: 'integer', minimum: min, maximum: max },
    parse: (texts, label) => check(last(texts), label),
    fromFile: (value, file) => check(String(value), file.at()),
    record: (value) => value,
  };
}

/** An int64 (a category id): a number while it is exact, a bigint beyond. */
function int64(): ValueKind<number | bigint> {
  const check = (value: string, label: string): number | bigint => {
    if (!/^-?\d{1,19}$/.test(value)) throw usage(`${label} must be an int64 integer, got '${value}'`);
    const big = BigInt(value);
    return Number.isSafeInteger(Number(big)) ? Number(big) : big;
  };
  return {
    type: 'int64',
    schema: { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?\\d{1,19}$' }] },
    parse: (texts, label) => check(last(texts), label),
    fromFile: (value, file) => check(String(value), file.at()),
    record: (value) => String(value),
  };
}

/** A share such as 0.1 (10 %), at most `max`. */
function share(max: number): ValueKind<number> {
  const check = (value: string, label: string): number => {
    if (!/^\d+(\.\d+)?$/.test(value) || Number(value) > max) throw usage(`${label} must be a share such as 0.1 (10 %), got '${value}'`);
    return Number(value);
  };
  return {
    type: 'share',
    schema: { type: 'number', minimum: 0, maximum: max },
    parse: (texts, label) => check(last(texts), label),
    fromFile: (value, file) => check(String(value), file.at()),
    record: (value) => value,
  };
}

function isRealDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** A calendar day (its noon, UTC: the same day in every time zone) or an ISO timestamp. */
function date(): ValueKind<Date> {
  const check = (value: string, label: string): Date => {
    const day = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.exec(value);
    const parsed = new Date(day?.[2] === undefined ? `${value}T12:00:00Z` : value);
    // A day that does not exist (2030-02-31) would roll over into the next month: refuse it rather than test another day.
    if (day === null || Number.isNaN(parsed.getTime()) || !isRealDay(day[1] as string))
      throw usage(`${label} must be a date such as 2030-12-05 (or an ISO timestamp), got '${value}'`);
    return parsed;
  };
  return {
    type: 'date',
    schema: { type: 'string' },
    parse: (texts, label) => check(last(texts), label),
    fromFile: (value, file) => check(String(value), file.at()),
    record: (value) => value.toISOString(),
  };
}

/** The service's base URL: http or https, no credentials, no query or fragment, a path ending in /v1; kept without a trailing slash. */
function baseUrl(): ValueKind<string> {
  const check = (raw: string, label: string): string => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      const port = /^https?:\/\/[^/?#@]*:(\d+)(?:[/?#]|$)/i.exec(raw)?.[1];
      if (port !== undefined && Number(port) > 65_535) throw usage(`${label} has port ${port}: a port is a number from 1 to 65535`);
      // Text that is no URL may still hold a key: only its length is told.
      throw usage(`${label} is not a URL (${raw.length} characters; it must start with http:// or https://)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usage(`${label} must be http or https, got '${url.protocol}'`);
    if (url.username !== '' || url.password !== '') throw usage(`${label} must not carry credentials; use PETSTORE_API_KEY`);
    if (url.search !== '' || url.hash !== '')
      throw usage(`${label} must not have a query or fragment: '${safeUrl(raw)}' (the query is not shown: it may hold a secret)`);
    const unversioned = baseUrlProblem(url, label);
    if (unversioned !== undefined) throw usage(unversioned);
    return url.href.replace(/\/$/, '');
  };
  return {
    type: 'url',
    schema: { type: 'string', pattern: '^https?://' },
    parse: (texts, label) => check(last(texts), label),
    fromFile: (value, file) => check(String(value), file.at()),
    record: (value) => value,
  };
}

/** One header per name: a name given again takes the later value, in the place of the first. */
function byName(list: readonly ExtraHeader[]): ExtraHeader[] {
  return [...new Map(list.map((header) => [header.name.toLowerCase(), header])).values()];
}

/** Headers sent on every request: `NAME:VALUE` flags, or a map in the configuration; a later layer adds to an earlier one. */
function headers(): ValueKind<ExtraHeader[]> {
  return {
    type: 'headers',
    repeatable: true,
    schema: { type: 'object', propertyNames: { pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" }, additionalProperties: { type: 'string' } },
    parse: (texts) => byName(texts.map((header) => parseHeaderFlag(header))),
    fromFile: (value, file) =>
      Object.entries(typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}).map(([name, text]) =>
        extraHeader(name, String(text), file.at([name], true)),
      ),
    // Header names, never their values: a value may be a secret.
    record: (value) => value.map((header) => header.name),
    merge: (earlier, later) => byName([...earlier, ...later]),
  };
}

/** Where the results are pushed when the run ends, `KIND=URL` each (`prometheus-rw=http://host:9090/api/v1/write`), repeatable. */
function outputs(): ValueKind<OutputTarget[]> {
  const check = (text: string, label: string): OutputTarget => {
    const at = text.indexOf('=');
    const kind = OUTPUT_KINDS.find((known) => known === text.slice(0, at));
    // Of a value that is not KIND=URL only a kind-like word is shown: the rest may be a URL with a password.
    if (kind === undefined) {
      const word = text.slice(0, at);
      const got = at > 0 && /^[\w-]+$/.test(word) ? `'${word}'` : `a value of ${text.length} characters that starts with no KIND=`;
      throw usage(
        `${label} must be KIND=URL, KIND one of: ${OUTPUT_KINDS.join(', ')} ` +
          `(e.g. prometheus-rw=http://127.0.0.1:9090/api/v1/write), got ${got}`,
      );
    }
    const url = text.slice(at + 1);
    const protocol = URL.canParse(url) ? new URL(url).protocol : undefined;
    const shown = protocol === undefined ? `no URL (${url.length} characters)` : `'${protocol}'`;
    if (protocol !== 'http:' && protocol !== 'https:') throw usage(`${label}: ${kind} needs an http or https URL, got ${shown}`);
    return { kind, url };
  };
  return {
    type: 'outputs',
    repeatable: true,
    schema: { type: 'array', minItems: 1, items: { type: 'string', pattern: `^(${OUTPUT_KINDS.join('|')})=https?://` } },
    parse: (texts, label) => texts.map((text) => check(text, label)),
    fromFile: (value, file) => (Array.isArray(value) ? value : [value]).map((item, i) => check(String(item), file.at([i]))),
    record: (value) => value.map((output) => `${output.kind}=${safeUrl(output.url)}`),
  };
}

/** The phases `--phase` names, as Schemathesis names them: the declared and contract-generated cases (examples), and each generated suite. */
export const PHASE_NAMES = ['examples', ...GENERATED_SUITES] as const;

const RUN_AND_LOAD: readonly OptionCommand[] = ['run', 'load'];
const REPORTING: readonly OptionCommand[] = ['run', 'load', 'merge'];
const SERVE: readonly OptionCommand[] = ['serve'];
const SERVE_HAS_NO_FILE = 'serve reads no configuration file';

/** Every option of every command, in the order the help lists them. */
export const OPTIONS = {
  // Reaching the service.
  config: option({
    kind: filePath(),
    arg: 'FILE',
    commands: RUN_AND_LOAD,
    section: 'service',
    env: 'PETSTORE_CONFIG',
    help: 'defaults from a YAML file',
    more: '; environment variables and flags override it (schemas/config.schema.json)',
    noConfig: 'it names the configuration file itself',
    recorded: { not: 'what the file sets is recorded as the options it sets' },
  }),
  'base-url': option({
    kind: baseUrl(),
    arg: 'URL',
    commands: RUN_AND_LOAD,
    section: 'service',
    env: 'PETSTORE_BASE_URL',
    configKey: 'baseUrl',
    help: 'the service under test, ending in /v1',
    more: '; without one, an embedded reference server on 127.0.0.1 is tested',
    recorded: { in: 'meta.baseUrl' },
  }),
  'api-key-file': option({
    kind: filePath(),
    arg: 'FILE',
    commands: RUN_AND_LOAD,
    section: 'service',
    configKey: 'apiKeyFile',
    // PETSTORE_API_KEY is the key itself, not this option's value: it wins over the file's apiKeyFile and loses to the flag.
    help: `read the API key from FILE (or set PETSTORE_API_KEY): ${MIN_KEY_CHARACTERS} to ${MAX_KEY_CHARACTERS} printable ASCII characters, the whitespace around them dropped`,
    fileHelp: `a file holding the API key, ${MIN_KEY_CHARACTERS} to ${MAX_KEY_CHARACTERS} printable ASCII characters (PETSTORE_API_KEY, the key itself, wins over it)`,
    recorded: { not: 'the key is never recorded' },
  }),
  'ca-file': option({
    kind: filePath(),
    arg: 'FILE',
    commands: RUN_AND_LOAD,
    section: 'service',
    configKey: 'caFile',
    help: 'extra trusted CA certificates (PEM)',
    recorded: { not: 'it decides whether the service can be reached (exit 2), not a verdict' },
  }),
  'client-cert': option({
    kind: filePath(),
    arg: 'FILE',
    commands: RUN_AND_LOAD,
    section: 'service',
    configKey: 'clientCert',
    help: 'a client certificate for mutual TLS (PEM), with --client-key FILE',
    fileHelp: 'a client certificate for mutual TLS (PEM), with clientKey',
    recorded: { option: 'clientCertificate' },
    record: () => true,
  }),
  'client-key': option({
    kind: filePath(),
    arg: 'FILE',
    commands: RUN_AND_LOAD,
    section: 'service',
    configKey: 'clientKey',
    help: 'its private key (PEM; an encrypted one reads its passphrase from PETSTORE_CLIENT_KEY_PASSPHRASE)',
    fileHelp: "the client certificate's private key (PEM; an encrypted one reads its passphrase from PETSTORE_CLIENT_KEY_PASSPHRASE)",
    recorded: { not: 'a secret; clientCertificate records that mutual TLS was used' },
  }),
  header: option({
    kind: headers(),
    short: 'H',
    arg: 'NAME:VALUE',
    commands: RUN_AND_LOAD,
    section: 'service',
    configKey: 'headers',
    help: 'send this header on every request (repeatable), e.g. a tenant or tracing header; a value that looks secret is never shown. Not Authorization, Host, Content-Type or the framing headers.',
    fileHelp:
      'headers sent on every request (a tenant, a tracing header), by name; --header wins for a name given again. Not Authorization, Host, Content-Type or the framing headers',
    recorded: { option: 'headers' },
  }),
  'wait-for': option({
    kind: integer(0, 3_600),
    arg: 'SECONDS',
    commands: RUN_AND_LOAD,
    section: 'service',
    env: 'PETSTORE_WAIT_FOR',
    configKey: 'waitForSeconds',
    help: 'wait up to SECONDS for the base URL to answer before the run starts (a service still starting), asking again with a growing pause',
    more: '; past it, one line and exit 2',
    fileHelp: 'how long to wait for the base URL to answer before the run starts (a service still starting)',
    recorded: { not: 'it decides when the run starts, not a verdict' },
  }),
  'max-header-bytes': option({
    kind: integer(1024, 16 * 1024 * 1024),
    arg: 'N',
    commands: RUN_AND_LOAD,
    section: 'service',
    configKey: 'maxHeaderBytes',
    default: DEFAULT_MAX_HEADER_BYTES,
    help: 'the largest response head (status line and headers) read; a larger one is named, never taken for no answer',
    recorded: { not: 'it decides whether answers can be read at all (exit 2), not a verdict' },
  }),

  // What a run judges, and how.
  suite: option({
    kind: list({ type: 'string', pattern: '^[a-z][a-z0-9-]*$' }, true),
    arg: 'NAME',
    commands: ['run'],
    section: 'select',
    configKey: 'suites',
    help: 'run only these suites (repeatable or comma-separated: auth,limits): contract, auth, limits, filters, lifecycle, errors, deprecation, versioning, coverage, fuzz, stateful',
    fileHelp: 'the suites to run (all without it)',
    recorded: { in: 'meta.suites' },
  }),
  check: option({
    kind: list({ type: 'string', minLength: 1 }),
    arg: 'GLOB',
    commands: ['run'],
    section: 'select',
    configKey: 'checks',
    help: "run only the cases whose id matches (repeatable; * and ?), e.g. 'auth.*'",
    fileHelp: "run only the cases whose id matches one of these globs (* and ?), e.g. 'auth.*'",
    recorded: { option: 'checks' },
  }),
  'skip-check': option({
    kind: list({ type: 'string', minLength: 1 }),
    arg: 'GLOB',
    commands: ['run'],
    section: 'select',
    help: "judge no check or case whose id matches (repeatable), as the configuration's disable list does; the report names each with the flag as its reason",
    noConfig: "the configuration's disable list does this, with a reason of its own for each id",
    recorded: { in: 'meta.disabled' },
  }),
  phase: option({
    kind: list({ enum: [...PHASE_NAMES] }, true),
    arg: 'NAME',
    commands: ['run'],
    section: 'select',
    configKey: 'phases',
    help: `run only these phases (repeatable or comma-separated): examples (the declared and contract cases), ${PHASE_NAMES.slice(1).join(', ')}`,
    fileHelp: `run only these phases: examples (the declared and contract cases), ${PHASE_NAMES.slice(1).join(', ')}`,
    recorded: { in: 'meta.suites' },
  }),
  scenarios: option({
    kind: filePaths(),
    arg: 'PATH',
    commands: ['run'],
    section: 'select',
    configKey: 'scenarios',
    help: 'also run your scenarios: a YAML file, or a folder of them; your suites go in suites/ beside them (repeatable)',
    fileHelp: 'scenario files, or folders of them, to run as well (each with its own suites in the suites/ folder beside it)',
    recorded: { option: 'scenarios' },
  }),
  load: option({
    kind: text(),
    arg: 'PROFILE',
    commands: ['run'],
    section: 'select',
    help: 'also run a load profile and add it to the report',
    noConfig: 'a load is asked for by one run (run --load, or the load command): a file would add one to every run',
    recorded: { option: 'profile' },
  }),
  now: option({
    kind: date(),
    arg: 'DATE',
    commands: ['run'],
    section: 'behaviour',
    shownDefault: 'now',
    help: "the suite's clock: a day (2030-12-06) or an ISO timestamp",
    noConfig: "one run's clock: a date kept in a team's file would go stale",
    recorded: { in: 'meta.clock' },
  }),
  'read-only': option({
    kind: flag(),
    commands: ['run'],
    section: 'behaviour',
    configKey: 'readOnly',
    default: false,
    help: 'send nothing that writes (for production)',
    recorded: { option: 'readOnly' },
  }),
  strict: option({
    kind: flag(),
    commands: ['run'],
    section: 'behaviour',
    configKey: 'strict',
    default: false,
    help: 'warnings fail the run',
    recorded: { option: 'strict' },
  }),
  'category-id': option({
    kind: int64(),
    arg: 'N',
    commands: ['run'],
    section: 'behaviour',
    env: 'PETSTORE_CATEGORY_ID',
    configKey: 'categoryId',
    default: 1,
    help: 'a category that exists on the server',
    recorded: { option: 'categoryId' },
  }),
  'max-writes': option({
    kind: integer(0, 1_000_000),
    arg: 'N',
    commands: ['run'],
    section: 'behaviour',
    configKey: 'maxWrites',
    default: 500,
    help: 'the most pets a run creates',
    more: '; cases that write once they exist are skipped',
    recorded: { option: 'maxWrites' },
  }),
  concurrency: option({
    kind: integer(1, 64),
    arg: 'N',
    commands: ['run'],
    section: 'bounds',
    configKey: 'concurrency',
    default: 4,
    help: 'cases run at once',
    recorded: { option: 'concurrency' },
  }),
  'consistency-window': option({
    kind: integer(0, 120_000),
    arg: 'MS',
    commands: ['run'],
    section: 'bounds',
    configKey: 'consistencyWindowMs',
    default: 2_000,
    help: 'how long a read retries to see a write',
    recorded: { option: 'consistencyWindowMs' },
  }),
  timeout: option({
    kind: integer(100, 600_000),
    arg: 'MS',
    commands: ['run'],
    section: 'bounds',
    configKey: 'timeoutMs',
    default: REQUEST_BOUNDS.requestTimeoutMs,
    help: 'deadline of one whole request',
    recorded: { option: 'timeoutMs' },
  }),
  'rate-limit': option({
    kind: integer(1, 100_000, '/s'),
    arg: 'N',
    commands: ['run'],
    section: 'bounds',
    configKey: 'rateLimit',
    help: "send at most N requests per second (a staging's published limit)",
    recorded: { option: 'rateLimit' },
  }),
  'max-wait': option({
    kind: integer(0, 3_600),
    arg: 'S',
    commands: ['run'],
    section: 'bounds',
    configKey: 'maxWaitSeconds',
    default: DEFAULT_PACING.maxWaitMs / 1000,
    help: 'the longest wait a 429/503 Retry-After may ask for',
    more: '; a longer one stops the run (exit 2: rate limits are not a verdict)',
    recorded: { option: 'maxWaitSeconds' },
  }),
  'wait-budget': option({
    kind: integer(0, 86_400),
    arg: 'S',
    commands: ['run'],
    section: 'bounds',
    configKey: 'waitBudgetSeconds',
    default: DEFAULT_PACING.waitBudgetMs / 1000,
    help: 'all the waiting a run may do for rate limits',
    recorded: { option: 'waitBudgetSeconds' },
  }),
  'max-response-bytes': option({
    kind: integer(1024, 1024 ** 3),
    arg: 'N',
    commands: ['run'],
    section: 'bounds',
    configKey: 'maxResponseBytes',
    default: REQUEST_BOUNDS.maxResponseBytes,
    help: 'response size cap',
    recorded: { option: 'maxResponseBytes' },
  }),
  seed: option({
    kind: integer(0, 2 ** 31 - 1),
    arg: 'N',
    commands: ['run'],
    section: 'generated',
    shownDefault: 'random, printed; the same seed replays the same requests',
    help: "the fuzzing phase's seed",
    noConfig: "it replays one run: a seed kept in a team's file would send the same generated requests on every run",
    recorded: { option: 'seed' },
  }),
  'max-examples': option({
    kind: integer(1, 10_000),
    arg: 'N',
    commands: ['run'],
    section: 'generated',
    configKey: 'maxExamples',
    default: 30,
    help: 'examples each fuzzing property draws',
    more: '; the stateful phase draws a third as many sequences',
    recorded: { option: 'maxExamples' },
  }),

  // Load.
  baseline: option({
    kind: filePath(),
    arg: 'FILE',
    commands: REPORTING,
    section: 'load',
    help: 'compare with an earlier report.json (p50, p99, rps, error rate)',
    noConfig: 'the report of one earlier run, chosen for each comparison',
    recorded: { option: 'baseline' },
  }),
  'baseline-tolerance': option({
    kind: share(10),
    arg: 'X',
    commands: REPORTING,
    section: 'load',
    shownDefault: "the profile's, else 0.1",
    help: 'allowed regression as a share',
    noConfig: 'the load profile holds its default (baselineTolerance)',
    recorded: { option: 'baselineTolerance' },
  }),
  'allow-production-load': option({
    kind: flag(),
    commands: ['run', 'load'],
    section: 'load',
    default: false,
    help: 'load a base URL the profile or the configuration marks as production',
    noConfig: "it lifts the guard a file's production list sets: it must be given on the command line each time",
    recorded: { not: 'it allows a run; it changes no verdict' },
  }),
  workers: option({
    kind: integer(1, MAX_WORKERS),
    arg: 'N',
    commands: ['run', 'load'],
    section: 'load',
    showBounds: true,
    shownDefault: "the profile's, else half the cores, at most 8 and at most one per connection",
    help: 'worker threads generating the load',
    noConfig: 'the load profile holds its default (workers)',
    recorded: { option: 'workers' },
  }),

  // Output.
  'report-dir': option({
    kind: filePath(),
    arg: 'DIR',
    commands: REPORTING,
    section: 'output',
    configKey: 'reportDir',
    default: 'reports',
    help: 'where reports go',
    recorded: { option: 'reportDir' },
  }),
  reporter: option({
    kind: list({ enum: [...REPORTER_NAMES] }),
    arg: 'LIST',
    commands: REPORTING,
    section: 'output',
    configKey: 'reporters',
    shownDefault: 'all but har; for load and merge: console,json',
    help: `${REPORTER_NAMES.join(', ')}, comma-separated or repeated`,
    more: '. Files: report.json, junit.xml, report.html, summary.md, report.har (the evidence as an HTTP Archive for HTTP tools); json:- prints report.json to standard output, the console to standard error',
    fileHelp: 'the reporters (all but har without it; console and json for load)',
    recorded: { not: 'it chooses the files written, not what they say' },
  }),
  out: option({
    kind: outputs(),
    arg: 'KIND=URL',
    commands: REPORTING,
    section: 'output',
    configKey: 'out',
    help:
      'also push the results when the run ends (repeatable): prometheus-rw=URL sends the case counts and ' +
      "each load stage's figures by Prometheus remote write",
    more: '; a push that fails is one line, and a report not written (exit 2 for a run that passed)',
    fileHelp:
      'where to push the results when the run ends, each KIND=URL: prometheus-rw=URL sends the case counts and ' +
      "each load stage's figures by Prometheus remote write",
    recorded: { not: 'it chooses where the results go, not what they say' },
  }),
  quiet: option({
    kind: flag(),
    short: 'q',
    commands: REPORTING,
    section: 'output',
    default: false,
    help: 'print only failures and the verdict',
    noConfig: 'how much one terminal shows',
    recorded: { not: 'it changes what is printed, not a verdict' },
  }),
  'no-color': option({
    kind: flag(),
    commands: REPORTING,
    section: 'output',
    default: false,
    // NO_COLOR and FORCE_COLOR are the colour conventions (no-color.org), read with the terminal, not as this flag's layer.
    help: 'no colours (a non-empty NO_COLOR too; FORCE_COLOR forces them)',
    noConfig: "colour is the terminal's (NO_COLOR, FORCE_COLOR)",
    recorded: { not: 'it changes what is printed, not a verdict' },
  }),

  // The reference server.
  port: option({
    kind: integer(0, 65_535),
    arg: 'N',
    commands: SERVE,
    section: 'serve',
    default: 8080,
    help: 'port',
    more: '; 0 picks a free one',
    noConfig: SERVE_HAS_NO_FILE,
    recorded: { not: 'serve writes no report' },
  }),
  host: option({
    kind: text(),
    arg: 'HOST',
    commands: SERVE,
    section: 'serve',
    default: '127.0.0.1',
    help: 'address',
    noConfig: SERVE_HAS_NO_FILE,
    recorded: { not: 'serve writes no report' },
  }),
  'big-ids': option({
    kind: flag(),
    commands: SERVE,
    section: 'serve',
    default: false,
    help: 'hand out ids above 2^53 (to test int64 exactness)',
    noConfig: SERVE_HAS_NO_FILE,
    recorded: { not: 'serve writes no report' },
  }),
  variant: option({
    kind: text(),
    arg: 'NAME',
    commands: SERVE,
    section: 'serve',
    help: 'serve a variant: the reference pet store broken or bent in one way (petstore-conformance catalogue lists them, with what each does)',
    noConfig: SERVE_HAS_NO_FILE,
    recorded: { not: 'serve writes no report' },
  }),

  // Every command.
  help: option({
    kind: flag(),
    short: 'h',
    commands: ['run', 'load', 'merge', 'serve', 'catalogue'],
    section: 'general',
    default: false,
    help: "this help (COMMAND --help: that command's)",
    noConfig: 'it prints this text and runs nothing',
    recorded: { not: 'it runs nothing' },
  }),
  version: option({
    kind: flag(),
    short: 'V',
    commands: ['run'],
    section: 'general',
    default: false,
    help: 'the version',
    noConfig: 'it prints the version and runs nothing',
    recorded: { not: 'it runs nothing' },
  }),
} as const;

/** The long name of an option, as its flag says it (`timeout` for --timeout). */
export type OptionName = keyof typeof OPTIONS;

/** The value of an option. */
export type ValueOf<K extends OptionName> = (typeof OPTIONS)[K] extends OptionSpec<infer T> ? T : never;

/** Every option's value once the layers are merged: never undefined where the table gives a default. */
export type OptionValues = {
  readonly [K in OptionName]: (typeof OPTIONS)[K] extends { readonly default: unknown } ? ValueOf<K> : ValueOf<K> | undefined;
};

/** Values given with flags (or any one layer): each option only when given. */
export type GivenValues = { [K in OptionName]?: ValueOf<K> };

/** An option's entry with its value's type left open, for what walks the whole table. */
export type AnyOptionSpec = OptionSpec<unknown>;

/** The table as entries, in its order; the methods of a kind are bivariant, so every entry is an AnyOptionSpec. */
export function optionEntries(command?: OptionCommand): Array<[OptionName, AnyOptionSpec]> {
  const all = Object.entries(OPTIONS) as Array<[OptionName, AnyOptionSpec]>;
  return command === undefined ? all : all.filter(([, spec]) => spec.commands.includes(command));
}

/** The configuration keys that are no option's: lists only a file holds. */
export const FILE_ONLY_KEYS = {
  disable: 'checks or cases switched off by id, each with the reason the report shows (--skip-check is the flag without a reason)',
  production: 'base URLs that are production: run goes read-only against them, load refuses them',
} as const;

/** The configuration schema's properties that the options give (the others are FILE_ONLY_KEYS'), in the table's order. */
export function configSchemaProperties(): Record<string, JsonObject> {
  return Object.fromEntries(
    optionEntries().flatMap(([name, spec]) => {
      if (spec.configKey === undefined) return [];
      const relative = spec.kind.type === 'path' || spec.kind.type === 'paths' ? ' Relative to this file.' : '';
      const later = [spec.env, `--${name}`].filter((by) => by !== undefined).join(', then ');
      const description = `${upperFirst(spec.fileHelp ?? spec.help)}.${relative} ${spec.kind.merge === undefined ? 'Overridden' : 'Added to'} by ${later}.`;
      return [[spec.configKey, { ...spec.kind.schema, description }]];
    }),
  );
}

function upperFirst(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
