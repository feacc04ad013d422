/**
 * What the option table is made of: the value kinds (how a flag, a variable and a configuration value become an option's
 * value, its schema and its record), the shape of a row, and the help sections. The rows are in options-table-*.ts, the
 * one table in options.ts.
 */
import path from 'node:path';
// A module of its own, that loads nothing: --help and --version read this table without loading the engine.
import { GENERATED_SUITES } from '../model/generated-suites.js';
import { extraHeader, parseHeaderFlag } from '../http/extra-headers.js';
import type { RunSettings } from '../engine/plan.js';
import type { ExtraHeader } from '../model/connection.js';
import { RunError } from '../model/errors.js';
import type { JsonObject, JsonValue } from '../model/json.js';
import { safeUrl } from '../model/safe-url.js';
import { baseUrlProblem, schemelessBaseUrl } from './base-url.js';
import { OUTPUT_KINDS, type OutputTarget } from '../reporters/reporter-names.js';

/** The commands that take options. */
export type OptionCommand = 'run' | 'load' | 'merge' | 'serve' | 'catalogue' | 'list' | 'explain';

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

/**
 * How the report records an option: under a key of meta.options (with that property's schema, which report.schema.json is generated
 * from), elsewhere in the report, or not (and why).
 */
export type Recorded = { readonly option: string; readonly schema: JsonObject } | { readonly in: string } | { readonly not: string };

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
  /** The names it had: still read, each with a warning that names the new one, until they go. */
  readonly was?: { readonly flag: string; readonly configKey: string };
  /** The field of the run's settings its settled value fills as it is (src/cli/run-settings.ts types and fills them from the rows). */
  readonly setting?: keyof RunSettings;
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

/**
 * Declares an option; one with a default is typed so that its value is never undefined, one that fills a setting keeps the
 * setting's name in its type (what types the run's settings).
 */
export function option<T, const S extends keyof RunSettings>(
  spec: DefaultedSpec<T> & { readonly setting: S },
): DefaultedSpec<T> & { readonly setting: S };
export function option<T, const S extends keyof RunSettings>(
  spec: OptionSpec<T> & { readonly setting: S },
): OptionSpec<T> & { readonly setting: S };
export function option<T>(spec: DefaultedSpec<T>): DefaultedSpec<T>;
export function option<T>(spec: OptionSpec<T>): OptionSpec<T>;
export function option<T>(spec: OptionSpec<T>): OptionSpec<T> {
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
export function text(schema: JsonObject = { type: 'string', minLength: 1 }): ValueKind<string> {
  return { type: 'string', schema, parse: (texts) => last(texts), fromFile: (value) => String(value), record: (value) => value };
}

/** One of a few words (`--fail-on new`); another is one line that lists them. */
export function choice<T extends string>(values: readonly T[]): ValueKind<T> {
  const check = (value: string, label: string): T => {
    const found = values.find((v) => v === value);
    if (found === undefined) throw usage(`${label} takes ${values.join(' or ')}, got '${value}'`);
    return found;
  };
  return {
    type: 'string',
    schema: { type: 'string', enum: [...values] },
    parse: (texts, label) => check(last(texts), label),
    fromFile: (value, file) => check(String(value), file.at()),
    record: (value) => value,
  };
}

/** A file or folder: a flag's is taken as given (relative to the working folder), a configuration file's relative to that file. */
export function filePath(): ValueKind<string> {
  return {
    type: 'path',
    schema: { type: 'string', minLength: 1 },
    parse: (texts) => last(texts),
    fromFile: (value, file) => path.resolve(file.dir, String(value)),
    record: (value) => value,
  };
}

/** Files or folders, repeatable; relative to the configuration file as `filePath`. */
export function filePaths(): ValueKind<string[]> {
  return {
    type: 'paths',
    repeatable: true,
    schema: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
    parse: (texts) => [...texts],
    fromFile: (value, file) => (Array.isArray(value) ? value : [value]).map((item) => path.resolve(file.dir, String(item))),
    record: (value) => [...value],
  };
}

/**
 * Names or globs, repeatable; each item of the configuration's list matches `items`. `commas`: a flag's value may list
 * several (`--suite auth,limits`).
 */
export function list(items: JsonObject, commas = false): ValueKind<string[]> {
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
export function flag(): ValueKind<boolean> {
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
export function integer(min: number, max: number, suffix?: string): ValueKind<number> {
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
export function int64(): ValueKind<number | bigint> {
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
export function share(max: number): ValueKind<number> {
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
export function date(): ValueKind<Date> {
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
export function baseUrl(): ValueKind<string> {
  const check = (raw: string, label: string): string => {
    // A host and port without a scheme: `localhost:8080/v1` parses as the scheme 'localhost:', `127.0.0.1:8080/v1` not at all.
    const schemeless = schemelessBaseUrl(raw);
    if (schemeless !== undefined) throw usage(`${label} ${raw} has no scheme: use ${schemeless}`);
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
export function headers(): ValueKind<ExtraHeader[]> {
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
export function outputs(): ValueKind<OutputTarget[]> {
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

/**
 * The kinds of cases `--case-kind` names (Schemathesis calls them phases, and `--phase` still names them, with a warning: the engine's
 * phases are the steps of a run): the declared and contract-generated cases (examples), and each generated suite.
 */
export const CASE_KINDS = ['examples', ...GENERATED_SUITES] as const;

/** The commands that reach the service. */
export const RUN_AND_LOAD: readonly OptionCommand[] = ['run', 'load'];
/** The commands that write reports. */
export const REPORTING: readonly OptionCommand[] = ['run', 'load', 'merge'];
/** The reference server's command. */
export const SERVE: readonly OptionCommand[] = ['serve'];
/** Why none of serve's options has a configuration key. */
export const SERVE_HAS_NO_FILE = 'serve reads no configuration file';
