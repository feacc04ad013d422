/**
 * A command's options settled in layers, as typed values: the table's defaults, then the configuration file, the
 * environment, the flags; a later layer wins (headers add up). Each value remembers where it came from, so a bad one
 * is one line that names its flag, its variable or its place in the file. Nothing is turned back into flag text.
 */
import type { SuiteConfig } from '../loader/config.js';
import type { FileProblem } from '../loader/yaml-file.js';
import { RunError } from '../model/errors.js';
import {
  optionEntries,
  type AnyOptionSpec,
  type GivenValues,
  type OptionCommand,
  type OptionName,
  type OptionValues,
  type RecordedValue,
  type ValueOf,
} from './options.js';

/** The environment variables a run reads (PETSTORE_*, NO_COLOR). */
export type Env = Readonly<Record<string, string | undefined>>;

/** The layers, in the order they apply. */
export type Layer = 'default' | 'file' | 'env' | 'flag';

/** Where a value came from: its layer, and how a message names it (`--timeout`, `PETSTORE_CATEGORY_ID`, `team.yaml:3:10: timeoutMs`). */
export interface Origin {
  layer: Layer;
  label: string;
}

/** A command's options, settled. */
export interface Settled {
  values: OptionValues;
  /** Where each value that is set came from. */
  origins: Partial<Record<OptionName, Origin>>;
}

/** A layer's value of one option, read only when it counts. */
interface Candidate {
  origin: Origin;
  read: () => unknown;
}

/** The configuration file's value of an option, read by its kind; its messages name the key where it stands. */
function fileCandidate(spec: AnyOptionSpec, config: SuiteConfig | undefined): Candidate | undefined {
  const key = fileKeyOf(spec, config);
  if (config === undefined || key === undefined || config.values[key] === undefined) return undefined;
  const at = (under: ReadonlyArray<string | number> = [], isKey = false): string => {
    const where = config.locate([key, ...under], isKey);
    return `${where.file}:${where.line}:${where.column}: ${key}`;
  };
  return { origin: { layer: 'file', label: at() }, read: () => spec.kind.fromFile(config.values[key] ?? null, { dir: config.dir, at }) };
}

/** The key the file gives an option's value under: its own, else the name it had (`was`), read with a warning. */
function fileKeyOf(spec: AnyOptionSpec, config: SuiteConfig | undefined): string | undefined {
  const old = spec.was?.configKey;
  const own = spec.configKey;
  return own !== undefined && config?.values[own] === undefined && old !== undefined && config?.values[old] !== undefined ? old : own;
}

/** One line per key of the file that an option no longer goes by: where it stands, and the name to use instead. */
export function deprecatedKeyWarnings(config: SuiteConfig | undefined): string[] {
  if (config === undefined) return [];
  return optionEntries().flatMap(([, spec]) => {
    const old = spec.was?.configKey;
    if (old === undefined || config.values[old] === undefined) return [];
    const where = config.locate([old], true);
    return [`${where.file}:${where.line}:${where.column}: ${old} is deprecated: it is ${spec.configKey ?? ''} now, and will be refused`];
  });
}

/** A problem a value's kind found, at the place its message starts with (`team.yaml:3:10: baseUrl must ...`). */
function located(error: RunError, config: SuiteConfig): FileProblem {
  const at = /^(.+?):(\d+):(\d+): ([\s\S]*)$/.exec(error.message);
  return at === null
    ? { file: config.file, line: 1, column: 1, message: error.message }
    : { file: at[1] as string, line: Number(at[2]), column: Number(at[3]), message: at[4] as string };
}

/**
 * Every value of the configuration read by its option's kind, whichever command reads the file: the values that do not
 * read (a base URL with credentials, a header the suite owns) are problems, each located, and are left out of the
 * configuration returned, so that settling it never stops at the first.
 */
export function fileValueProblems(config: SuiteConfig): { config: SuiteConfig; problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  const bad = new Set<string>();
  for (const [, spec] of optionEntries()) {
    try {
      fileCandidate(spec, config)?.read();
    } catch (error) {
      const key = fileKeyOf(spec, config);
      if (!(error instanceof RunError) || key === undefined) throw error;
      problems.push(located(error, config));
      bad.add(key);
    }
  }
  const values = Object.fromEntries(Object.entries(config.values).filter(([key]) => !bad.has(key)));
  return { config: { ...config, values }, problems };
}

/** The layers that set an option, in order; an empty environment variable sets nothing. */
function candidates(name: OptionName, spec: AnyOptionSpec, flags: GivenValues, env: Env, config: SuiteConfig | undefined): Candidate[] {
  const found: Candidate[] = [];
  const file = fileCandidate(spec, config);
  if (file !== undefined) found.push(file);
  const variable = spec.env;
  const text = variable === undefined ? undefined : env[variable];
  if (variable !== undefined && text !== undefined && text !== '')
    found.push({ origin: { layer: 'env', label: variable }, read: () => spec.kind.parse([text], variable) });
  const given: unknown = flags[name];
  if (given !== undefined) found.push({ origin: { layer: 'flag', label: `--${name}` }, read: () => given });
  return found;
}

/**
 * Settles every option of `command`: defaults, the configuration file, the environment, the flags (already read by
 * parseFlags). A layer below the winning one is not read: a bad variable that a flag overrides stops nothing.
 * Options the command does not take keep their defaults.
 */
export function settle(command: OptionCommand, flags: GivenValues, env: Env, config?: SuiteConfig): Settled {
  const values: Partial<Record<OptionName, unknown>> = {};
  const origins: Partial<Record<OptionName, Origin>> = {};
  for (const [name, spec] of optionEntries()) {
    const found = spec.commands.includes(command) ? candidates(name, spec, flags, env, config) : [];
    const winner = found[found.length - 1];
    if (winner === undefined) {
      if (spec.default !== undefined) {
        values[name] = spec.default;
        origins[name] = { layer: 'default', label: `the default of --${name}` };
      }
      continue;
    }
    const merge = spec.kind.merge?.bind(spec.kind);
    values[name] =
      merge === undefined ? winner.read() : found.map((candidate) => candidate.read()).reduce((earlier, later) => merge(earlier, later));
    origins[name] = winner.origin;
  }
  // Each value was read by its own option's kind, and every option with a default has one.
  return { values: values as OptionValues, origins };
}

/** How a message names an option's value: where it came from, else its flag. */
export function labelOf(settled: Settled, name: OptionName): string {
  return settled.origins[name]?.label ?? `--${name}`;
}

/** Values a plan decided itself (a random seed, a profile's name, read-only on a production URL); undefined records nothing. */
export type EffectiveValues = { [K in OptionName]?: ValueOf<K> | undefined };

/**
 * meta.options: every option the table records under a key, of the command (or decided by the plan), that has a
 * value; the plan's own value wins over the settled one.
 */
export function recordedOptions(command: OptionCommand, settled: Settled, effective: EffectiveValues = {}): Record<string, RecordedValue> {
  const recorded: Record<string, RecordedValue> = {};
  for (const [name, spec] of optionEntries()) {
    if (!('option' in spec.recorded)) continue;
    const decided = Object.hasOwn(effective, name);
    if (!decided && !spec.commands.includes(command)) continue;
    const value: unknown = decided ? effective[name] : settled.values[name];
    if (value === undefined) continue;
    recorded[spec.recorded.option] = spec.record === undefined ? spec.kind.record(value) : spec.record(value);
  }
  return recorded;
}
